import Foundation
import PatchManifest
import Testing
@testable import PatchStore
import PythonPeer

/// python-tuf's reference client (`tuf.ngclient.Updater`), a client nobody here wrote, refreshes
/// from our store over HTTP on 127.0.0.1 and downloads every target. Required under CI=true.
@Suite(.serialized) struct TUFInteropTests {
    /// Serves the store with http.server on an ephemeral loopback port for the length of one
    /// refresh, persisting client state in `workdir` between runs, and prints one JSON result.
    static let client = """
        import sys, os, json, threading, functools, hashlib
        from http.server import ThreadingHTTPServer, SimpleHTTPRequestHandler
        from tuf.ngclient import Updater

        store, trusted_root, workdir = sys.argv[1], sys.argv[2], sys.argv[3]

        class Quiet(SimpleHTTPRequestHandler):
            def log_message(self, *args): pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=store))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        metadata_dir = os.path.join(workdir, "metadata")
        targets_dir = os.path.join(workdir, "targets")
        os.makedirs(metadata_dir, exist_ok=True)
        os.makedirs(targets_dir, exist_ok=True)
        result = {}
        try:
            updater = Updater(metadata_dir=metadata_dir, metadata_base_url=base + "/metadata/",
                              target_base_url=base + "/targets/", target_dir=targets_dir,
                              bootstrap=open(trusted_root, "rb").read())
            updater.refresh()
            trusted = updater._trusted_set
            result["versions"] = {"root": trusted.root.version, "timestamp": trusted.timestamp.version,
                                  "snapshot": trusted.snapshot.version, "targets": trusted.targets.version}
            downloaded = {}
            for path in sorted(trusted.targets.targets):
                info = updater.get_targetinfo(path)
                local = updater.download_target(info, os.path.join(targets_dir, hashlib.sha256(path.encode()).hexdigest()))
                downloaded[path] = hashlib.sha256(open(local, "rb").read()).hexdigest()
            result["downloaded"] = downloaded
            result["ok"] = True
        except Exception as error:
            result["ok"] = False
            result["error"] = f"{type(error).__name__}: {error}"
        finally:
            server.shutdown()
        print(json.dumps(result))
        """

    struct ClientResult {
        var ok: Bool
        var error: String
        var versions: [String: Int]
        var downloaded: [String: String]
    }

    /// Runs the reference client; nil when python-tuf is missing outside CI (the test then skips).
    static func refresh(_ fixture: StoreFixture, workdir: URL) throws -> ClientResult? {
        guard let env = try requirePythonModule("tuf") else { return nil }
        let script = fixture.directory.appendingPathComponent(".patchcli/tuf-client.py")
        try Data(client.utf8).write(to: script)
        let result = try runPython(env, arguments: [script.path, fixture.directory.path, fixture.url("metadata/1.root.json").path, workdir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        return ClientResult(
            ok: object["ok"] as? Bool ?? false, error: object["error"] as? String ?? "",
            versions: object["versions"] as? [String: Int] ?? [:], downloaded: object["downloaded"] as? [String: String] ?? [:])
    }

    /// A store using real time (python's clock): two releases, a promotion, and a timestamp and a
    /// root key rotation, so the client walks a root chain and dual-signed metadata.
    static func realisticStore() throws -> StoreFixture {
        let fixture = try StoreFixture()
        let now = PublishOptions(now: Date())
        try fixture.publish(sampleModule(seed: 20), channel: "staging", options: now)
        try fixture.publish(sampleModule(seed: 20, edits: 3), channel: "staging", options: now)
        _ = try fixture.store.promote(from: "staging", to: "production", fingerprint: nil, rolloutPercent: 50, signers: fixture.signers, options: now)
        return fixture
    }

    @Test func referenceClientRefreshesAndDownloadsEveryTarget() throws {
        let fixture = try Self.realisticStore()
        defer { fixture.remove() }
        let newTimestamp = SigningKey.generate(), newRoot = SigningKey.generate()
        var signers = fixture.signers
        signers.keys[.timestamp] = [newTimestamp, fixture.keys[.timestamp]!]
        _ = try fixture.store.rotateKey(role: .timestamp, newKey: newTimestamp.publicKey, signers: signers, options: PublishOptions(now: Date()))
        signers.keys[.timestamp] = [newTimestamp]
        signers.keys[.root] = [newRoot, fixture.keys[.root]!]
        _ = try fixture.store.rotateKey(role: .root, newKey: newRoot.publicKey, signers: signers, options: PublishOptions(now: Date()))

        let workdir = fixture.directory.appendingPathComponent(".patchcli/client")
        guard let result = try Self.refresh(fixture, workdir: workdir) else { return }
        #expect(result.ok, "\(result.error)")
        let state = try fixture.store.loadState(now: Date())
        #expect(result.versions == ["root": 3, "timestamp": state.timestamp.version, "snapshot": state.snapshot.version, "targets": state.targets.version])
        #expect(result.downloaded.count == state.targets.targets.count)
        #expect(result.downloaded.keys.contains { $0.hasPrefix("modules/") })
        #expect(result.downloaded.keys.contains { $0.hasPrefix("diffs/") })
        for (path, info) in state.targets.targets {
            #expect(result.downloaded[path] == info.hashes["sha256"], "\(path)")
        }

        // The same client picks up the next publish from its persisted state.
        let after = PublishOptions(now: Date())
        _ = try fixture.store.publish(module: sampleModule(seed: 21), request: PublishRequest(fingerprint: "fp-1"), verifier: nil, signers: signers, options: after)
        let next = try #require(try Self.refresh(fixture, workdir: workdir))
        #expect(next.ok, "\(next.error)")
        #expect(next.versions["timestamp"] == state.timestamp.version + 1)
    }

    @Test func referenceClientRefusesAReplayedOlderTimestamp() throws {
        let fixture = try Self.realisticStore()
        defer { fixture.remove() }
        let old = try fixture.read("metadata/timestamp.json")
        try fixture.publish(sampleModule(seed: 22), options: PublishOptions(now: Date()))
        let workdir = fixture.directory.appendingPathComponent(".patchcli/client")
        guard let seen = try Self.refresh(fixture, workdir: workdir) else { return }
        #expect(seen.ok, "\(seen.error)")
        try fixture.write(old, to: "metadata/timestamp.json")
        let replayed = try #require(try Self.refresh(fixture, workdir: workdir))
        #expect(!replayed.ok)
        #expect(replayed.error.contains("BadVersionNumberError"), "\(replayed.error)")
    }

    @Test func referenceClientRefusesATamperedTarget() throws {
        let fixture = try Self.realisticStore()
        defer { fixture.remove() }
        let record = try #require(try fixture.store.list(channel: "production", now: nil).first?.current.first)
        let file = try fixture.targetFile(record.module.path)
        var bytes = try fixture.read(file)
        bytes[10] ^= 0xFF
        try fixture.write(bytes, to: file)
        guard let result = try Self.refresh(fixture, workdir: fixture.directory.appendingPathComponent(".patchcli/client")) else { return }
        #expect(!result.ok)
        #expect(result.error.contains("LengthOrHashMismatchError"), "\(result.error)")
    }

    @Test func referenceClientRefusesExpiredMetadata() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // Published eight days ago: the 7-day timestamp has expired by the client's clock.
        try fixture.publish(sampleModule(seed: 23), options: PublishOptions(now: Date().addingTimeInterval(-8 * 86_400)))
        guard let result = try Self.refresh(fixture, workdir: fixture.directory.appendingPathComponent(".patchcli/client")) else { return }
        #expect(!result.ok)
        #expect(result.error.contains("ExpiredMetadataError"), "\(result.error)")
    }
}
