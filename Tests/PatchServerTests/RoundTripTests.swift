import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PatchDiff
import PatchManifest
import PatchRuntime
import PatchServer
import PatchStore
import Testing

/// The whole device path over loopback: check, download, decompress, verify, diff, run.
struct RoundTripTests {
    @Test func aDeviceChecksDownloadsVerifiesPatchesAndRunsTheRelease() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let first = try fixture.publish(answer: 41)
        let second = try fixture.publish(answer: 42)
        let firstModule = try guestModule(answer: 41)
        #expect(second.diffs.contains { $0.fromSHA256 == first.module.sha256 }, "the store should hold a diff from the first release")

        try fixture.deviceInstalledFirst(first.version)
        try await fixture.application.test(.live) { client async throws in
            let update = try await client.check(sdkCheckBody(currentVersion: first.version))
            #expect(update.hasUpdate)
            #expect(update.version == second.version)
            #expect(update.mandatory == false)
            let moduleURL = try #require(update.moduleURL.flatMap(URL.init(string:)))
            #expect(moduleURL.absoluteString.hasSuffix(".br"), "the SDK decompresses only URLs ending in .br")
            #expect(moduleURL.host == "localhost", "without --public-url, URLs come from the request's Host header")

            // Full download: brotli, then the SHA-256 the response promised.
            let download = try await client.execute(uri: moduleURL.path, method: .get)
            #expect(download.status == .ok)
            #expect(download.headers[.contentType] == "application/octet-stream")
            #expect(download.headers[.contentEncoding] == nil, "URLSession would decompress a Content-Encoding: br body itself")
            #expect(download.headers[.cacheControl]?.contains("immutable") == true)
            let raw = try CodecKind.brotli.decompress(Array(download.body.readableBytesView), maxOutputBytes: 512 << 20)
            #expect(SHA256Hasher.hex(of: raw) == update.sha256)
            #expect(raw.count == update.size)

            // Diff path: BSDIFF40 from the device's current bytes reproduces the same artifact.
            let diffURL = try #require(update.diffURL.flatMap(URL.init(string:)))
            let diff = try await client.execute(uri: diffURL.path, method: .get)
            #expect(diff.status == .ok)
            #expect(diff.body.readableBytes == update.diffSize)
            let patched = try BSPatch.apply(old: firstModule, patch: Array(diff.body.readableBytesView))
            #expect(SHA256Hasher.hex(of: patched) == update.sha256)

            // And the result runs in the device's interpreter.
            let artifact = try ArtifactLoader.load(patched, expectedSHA256: update.sha256)
            let answer = try RuntimeSession.withSession(artifact: artifact, options: RuntimeOptions()) { session throws(RuntimeError) in
                try session.callScalar("answer", arguments: []).values
            }
            #expect(answer == [TypedValue(type: "i32", value: "42")])

            // Revalidation by ETag costs no body.
            let etag = try #require(download.headers[.eTag])
            let again = try await client.execute(uri: moduleURL.path, method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }
}
