import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PatchManifest
import PatchServer
import PatchStore
import Synchronization
import Testing

/// Issue 16 defects 3 and 5 as a device sees them: a tampered artifact is never offered (the
/// previous good release, or the full artifact instead of a bad diff), and a store rolled back
/// under a restarted server never walks devices back.
struct StoreFaultTests {
    /// Collects what the watcher logs.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    }

    static func flipMiddleByte(of file: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: file)
    }

    static func file(of targetPath: String, in fixture: ServerFixture) throws -> URL {
        let state = try fixture.store.loadState(now: nil)
        let sha256 = try #require(state.targets.targets[targetPath]?.hashes["sha256"])
        return fixture.store.base.appendingPathComponent(StorePath.targetFile(targetPath, sha256: sha256))
    }

    @Test func aTamperedCurrentArtifactIsNeverOfferedThePreviousGoodReleaseIs() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let previous = try fixture.publish(answer: 1)
        let current = try fixture.publish(answer: 2)
        let log = Log()
        let server = UpdateServer(watcher: StoreWatcher(store: fixture.store, log: log.sink), events: fixture.events)
        let url = try Self.file(of: current.module.path, in: fixture)
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let offered = try await client.check(sdkCheckBody())
            #expect(offered.version == current.version)
            // One byte of the served .br changes while the server runs (same name, same length).
            try Self.flipMiddleByte(of: url)
            let fallback = try await client.check(sdkCheckBody())
            #expect(fallback.version == previous.version, "the previous good release, not the tampered one")
            #expect(fallback.moduleURL?.contains(previous.module.sha256) == true)
            let download = try await client.execute(uri: try #require(URL(string: offered.moduleURL ?? "")?.path), method: .get)
            #expect(download.status == .serviceUnavailable)
            // A device already on the previous release is up to date; one on the tampered one too.
            #expect(try await client.check(sdkCheckBody(currentVersion: previous.version)) == .noUpdate)
            #expect(try await client.check(sdkCheckBody(currentVersion: current.version)) == .noUpdate)
        }
        #expect(log.all.contains { $0.contains(current.module.path) && $0.contains("sha256") }, "\(log.all)")

        // A restarted server finds it when it loads the catalog.
        let restarted = UpdateServer(store: fixture.store, events: fixture.events)
        try await restarted.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()).version == previous.version)
        }
        // Both releases tampered: nothing to offer.
        try Self.flipMiddleByte(of: try Self.file(of: previous.module.path, in: fixture))
        let nothingGood = UpdateServer(store: fixture.store, events: fixture.events)
        try await nothingGood.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()) == .noUpdate)
        }
    }

    @Test func aTamperedDiffIsLeftOutTheFullArtifactIsOffered() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let previous = try fixture.publish(answer: 1)
        let current = try fixture.publish(answer: 2)
        let diff = try #require(current.diffs.first)
        try fixture.deviceInstalledFirst(previous.version)
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(currentVersion: previous.version)).diffURL != nil)
            try Self.flipMiddleByte(of: try Self.file(of: diff.path, in: fixture))
            let full = try await client.check(sdkCheckBody(currentVersion: previous.version))
            #expect(full.version == current.version)
            #expect(full.diffURL == nil && full.diffSize == nil)
            #expect(full.moduleURL?.hasSuffix(".wasm.br") == true)
        }
    }

    /// A served download that fails its check stops the offer (here the bytes were rewritten with
    /// the old mtime restored; the ctime still changes, so the check alone would catch it too).
    @Test func aFailedDownloadStopsTheOffer() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let previous = try fixture.publish(answer: 1)
        let current = try fixture.publish(answer: 2)
        let url = try Self.file(of: current.module.path, in: fixture)
        try await fixture.application.test(.router) { client async throws in
            let offered = try await client.check(sdkCheckBody())
            #expect(offered.version == current.version)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            try Self.flipMiddleByte(of: url)
            try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: url.path)
            let path = "/" + (try fixture.store.loadState(now: nil).targets.targets[current.module.path]?.hashes["sha256"])
                .map { StorePath.targetFile(current.module.path, sha256: $0) }!
            #expect(try await client.execute(uri: path, method: .get).status == .serviceUnavailable)
            #expect(try await client.check(sdkCheckBody()).version == previous.version)
        }
    }

    /// One byte changed in each kind of store file: what a running server (catalog already read)
    /// and a restarted one offer a device that has never updated and one on the previous release.
    @Test(arguments: ["root", "timestamp", "snapshot", "targets", "module", "diff", "channel", "release"])
    func whatIsOfferedAfterTampering(kind: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let previous = try fixture.publish(answer: 1)
        let current = try fixture.publish(answer: 2)
        let state = try fixture.store.loadState(now: nil)
        let file: URL = switch kind {
        case "root": fixture.store.base.appendingPathComponent("metadata/1.root.json")
        case "timestamp": fixture.store.base.appendingPathComponent(StorePath.timestamp)
        case "snapshot": fixture.store.base.appendingPathComponent("metadata/\(state.snapshot.version).snapshot.json")
        case "targets": fixture.store.base.appendingPathComponent("metadata/\(state.targets.version).targets.json")
        case "module": try Self.file(of: current.module.path, in: fixture)
        case "diff": try Self.file(of: try #require(current.diffs.first).path, in: fixture)
        case "channel": try Self.file(of: ReleasePaths.channelHead("production"), in: fixture)
        default: try Self.file(of: ReleasePaths.record(channel: "production", counter: 1), in: fixture)
        }
        let metadata = !["module", "diff"].contains(kind)
        try fixture.deviceInstalledFirst(previous.version, deviceID: "device-2")

        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()).version == current.version)
            try Self.flipMiddleByte(of: file)
            let fresh = try await client.check(sdkCheckBody())
            let fromPrevious = try await client.check(sdkCheckBody(currentVersion: previous.version, deviceID: "device-2"))
            switch kind {
            case "module":
                #expect(fresh.version == previous.version)
                #expect(fromPrevious == .noUpdate)
            case "diff":
                #expect(fresh.version == current.version)
                #expect(fromPrevious.version == current.version && fromPrevious.diffURL == nil)
            default:
                // Metadata and records were read when the catalog loaded; a changed timestamp.json
                // is re-read, refused, and the verified state stays in service.
                #expect(fresh.version == current.version)
                #expect(fromPrevious.diffURL != nil)
            }
        }

        let restarted = UpdateServer(store: fixture.store, events: fixture.events)
        try await restarted.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            if metadata {
                let answer = try await client.post(UpdateServer.checkPath, sdkCheckBody())
                #expect(answer.status == .serviceUnavailable, "\(kind)")
            } else {
                let fresh = try await client.check(sdkCheckBody())
                #expect(fresh.version == (kind == "module" ? previous.version : current.version))
                #expect(fresh.diffURL == nil)
            }
        }
    }

    /// `status --store` says which release serve does not offer and why.
    @Test func statusReportsWhatIsNotOffered() throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let previous = try fixture.publish(answer: 1)
        let current = try fixture.publish(answer: 2)
        try Self.flipMiddleByte(of: try Self.file(of: current.module.path, in: fixture))
        let records = try fixture.store.list(channel: nil, now: nil).flatMap(\.history)
        var report = try AdoptionReport.summarize(fixture.events, records: records)
        report.markNotOffered(try ReleaseCatalog(store: fixture.store, state: fixture.store.loadState(now: nil)).unservable, records: records)
        #expect(report.unservable?.keys.sorted() == [current.module.path])
        let byVersion = Dictionary(uniqueKeysWithValues: report.releases.map { ($0.version, $0) })
        #expect(byVersion[current.version]?.notOffered?.contains("sha256") == true)
        #expect(byVersion[previous.version]?.notOffered == nil)
    }

    /// Defect 3: an older signed timestamp.json put back under a restarted server.
    @Test func aRolledBackStoreIsRefusedAfterARestart() async throws {
        let fixture = try ServerFixture()
        let stateDirectory = fixture.directory.appendingPathComponent("state").path
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        let oldTimestamp = try Data(contentsOf: fixture.store.base.appendingPathComponent(StorePath.timestamp))
        _ = try fixture.publish(answer: 2)
        let latest = try fixture.publish(answer: 3)

        let server = UpdateServer(watcher: StoreWatcher(store: fixture.store, trusted: TrustedVersionsFile(stateDirectory: stateDirectory)), events: fixture.events)
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody()).version == latest.version)
        }
        try oldTimestamp.write(to: fixture.store.base.appendingPathComponent(StorePath.timestamp))

        let restarted = UpdateServer(watcher: StoreWatcher(store: fixture.store, trusted: TrustedVersionsFile(stateDirectory: stateDirectory)), events: fixture.events)
        try await restarted.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let answer = try await client.post(UpdateServer.checkPath, sdkCheckBody(currentVersion: latest.version))
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.reason?.contains("older than version 4, which this machine already trusted") == true, "\(answer.reason ?? "")")
        }

        // Without the record the rolled-back store loads, but a device on a newer release of the
        // channel is never offered the older one; a device that never updated still gets it.
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.check(sdkCheckBody(currentVersion: latest.version)) == .noUpdate)
            #expect(try await client.check(sdkCheckBody(currentVersion: "59-0123456789ab")) == .noUpdate)
            #expect(try await client.check(sdkCheckBody(currentVersion: "0.0.0")).version == first.version)
        }
    }

    /// An explicit rollback is a newer record, so devices on the release rolled back from get the older content.
    @Test func anExplicitRollbackStillMovesDevicesBack() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 1)
        let second = try fixture.publish(answer: 2)
        _ = try fixture.store.rollback(channel: "production", fingerprint: nil, toCounter: nil, signers: fixture.signers, options: PublishOptions())
        try await fixture.application.test(.router) { client async throws in
            let answer = try await client.check(sdkCheckBody(currentVersion: second.version))
            #expect(answer.sha256 == first.module.sha256)
        }
    }
}
