import Foundation
import Testing

/// One signing story, end to end from the CLI: the keys `init` creates are the store's TUF role
/// keys, every store command finds them when run in the project, and the app embeds the root key.
@Suite struct SigningCLITests {
    /// A SwiftPM app with one view, and a home folder of its own for the key directory.
    private static func package(in directory: URL) throws -> (project: URL, environment: [String: String]) {
        let project = directory.appendingPathComponent("Tally")
        let sources = project.appendingPathComponent("Sources/Tally")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(name: "Tally", targets: [.executableTarget(name: "Tally")])
            """.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
            import SwiftUI

            @main struct TallyApp: App {
                var body: some Scene { WindowGroup { Text("Tally") } }
            }
            """.write(to: sources.appendingPathComponent("TallyApp.swift"), atomically: true, encoding: .utf8)
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return (project, ["HOME": home.path])
    }

    private static func permissions(_ url: URL) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int).map { $0 & 0o777 }
    }

    /// The root key store metadata lists: its keyid and raw public key (base64, as the app embeds it).
    private static func rootKey(of store: URL) throws -> (keyid: String, base64: String) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: store.appendingPathComponent("metadata/1.root.json"))) as? [String: Any])
        let signed = try #require(root["signed"] as? [String: Any])
        let keyid = try #require((((signed["roles"] as? [String: Any])?["root"] as? [String: Any])?["keyids"] as? [String])?.first)
        let hex = try #require((((signed["keys"] as? [String: Any])?[keyid] as? [String: Any])?["keyval"] as? [String: Any])?["public"] as? String)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        return (keyid, Data(bytes).base64EncodedString())
    }

    @Test func initKeysSignTheStoreWithoutKeyFlagsAndTheAppEmbedsTheRootKey() throws {
        try withScratchDirectory { directory in
            let (project, environment) = try Self.package(in: directory)
            let initialized = try CLI.run(["init", "--json"], in: project, environment: environment)
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")
            let keys = directory.appendingPathComponent("home/.config/patch/keys/tally")
            #expect(initialized.result?["key_directory"] as? String == keys.path)
            #expect(initialized.result?["created_keys"] as? [String] == ["root", "targets", "snapshot", "timestamp"])
            #expect(try Self.permissions(keys) == 0o700)
            for role in ["root", "targets", "snapshot", "timestamp"] {
                #expect(try Self.permissions(keys.appendingPathComponent("\(role).key")) == 0o600, "\(role)")
            }
            let config = try String(contentsOf: project.appendingPathComponent("patch.json"), encoding: .utf8)
            #expect(config.contains(#""keyDirectory" : "~/.config/patch/keys/tally""#), "\(config)")

            // No key flags anywhere: the store commands take init's key directory from patch.json.
            let store = directory.appendingPathComponent("store")
            let created = try CLI.run(["release", "init", "--store", store.path, "--json"], in: project, environment: environment)
            #expect(created.status == 0, "\(created.stdout)")
            try Data(ReleaseCommandTests.module(seed: 3)).write(to: project.appendingPathComponent("a.wasm"))
            let published = try CLI.run(["release", "a.wasm", "--store", store.path, "--fingerprint", "fp-1", "--json"], in: project, environment: environment)
            #expect(published.status == 0, "\(published.stdout)")
            let rolledOut = try CLI.run(["release", "rollout", "50%", "--store", store.path, "--json"], in: project, environment: environment)
            #expect(rolledOut.status == 0, "\(rolledOut.stdout)")
            let verified = try CLI.run(["verify", store.path, "--json"], in: project, environment: environment)
            #expect(verified.status == 0, "\(verified.stdout)")

            // The app's trust anchor is the store's root key.
            let root = try Self.rootKey(of: store)
            let embedded = try String(contentsOf: project.appendingPathComponent("Sources/Tally/Patch/PatchPublicKey.generated.swift"), encoding: .utf8)
            #expect(embedded.contains("static let rootKeyID = \"\(root.keyid)\""), "\(embedded)")
            #expect(embedded.contains("static let publicKeyBase64 = \"\(root.base64)\""), "\(embedded)")

            // Outside the project nothing is found; an explicit --key-dir wins over the project's keys.
            let elsewhere = try CLI.run(["release", "rollout", "60%", "--store", store.path, "--json"], in: directory, environment: environment)
            #expect(elsewhere.status == 43, "\(elsewhere.stdout)")
            #expect(try CLI.run(["keys", "generate", "--out", "other", "--json"], in: directory).status == 0)
            let foreign = try CLI.run(["release", "rollout", "60%", "--store", store.path, "--key-dir", directory.appendingPathComponent("other").path, "--json"],
                                      in: project, environment: environment)
            #expect(foreign.status == 43, "\(foreign.stdout)")
            #expect(foreign.error?["kind"] as? String == "key_problem")
            // A --key-dir without some role's key does not borrow it from the project's folder.
            #expect(try CLI.run(["keys", "generate", "--out", "partial", "--role", "timestamp", "--json"], in: directory).status == 0)
            try FileManager.default.removeItem(at: directory.appendingPathComponent("partial/timestamp.key"))
            try FileManager.default.copyItem(at: keys.appendingPathComponent("timestamp.key"), to: directory.appendingPathComponent("partial/timestamp.key"))
            let partial = try CLI.run(["release", "rollout", "60%", "--store", store.path, "--key-dir", directory.appendingPathComponent("partial").path, "--json"],
                                      in: project, environment: environment)
            #expect(partial.status == 43, "\(partial.stdout)")
            #expect((partial.error?["message"] as? String)?.contains("no targets key") == true, "\(partial.stdout)")

            // doctor agrees: every key is there, private, and the embedded key is root's.
            let doctor = try CLI.run(["doctor", "--json"], in: project, environment: environment)
            let checks = (doctor.result?["checks"] as? [[String: Any]]) ?? []
            for name in ["key_directory", "signing_key_root", "signing_key_targets", "signing_key_snapshot", "signing_key_timestamp", "public_key"] {
                #expect(checks.first { $0["name"] as? String == name }?["status"] as? String == "ok", "\(name): \(doctor.stdout)")
            }

            // The root key taken offline: publishing goes on, doctor still checks the embedded key
            // against root.pub.json, and init never makes another root key.
            try FileManager.default.moveItem(at: keys.appendingPathComponent("root.key"), to: directory.appendingPathComponent("offline-root.key"))
            let withoutRoot = try CLI.run(["release", "rollout", "70%", "--store", store.path, "--json"], in: project, environment: environment)
            #expect(withoutRoot.status == 0, "\(withoutRoot.stdout)")
            let offlineDoctor = try CLI.run(["doctor", "--json"], in: project, environment: environment)
            let offlineChecks = (offlineDoctor.result?["checks"] as? [[String: Any]]) ?? []
            for name in ["signing_key_root", "public_key"] {
                #expect(offlineChecks.first { $0["name"] as? String == name }?["status"] as? String == "ok", "\(name): \(offlineDoctor.stdout)")
            }
            let again = try CLI.run(["init", "--json"], in: project, environment: environment)
            #expect(again.status == 0, "\(again.stdout)")
            #expect(again.result?["created_keys"] as? [String] == [], "\(again.stdout)")
            #expect(!FileManager.default.fileExists(atPath: keys.appendingPathComponent("root.key").path))
        }
    }

    /// `init` in the package, then `release init` of `store` with the keys init made (in `keys`).
    private static func initializedProjectAndStore(in directory: URL) throws
        -> (project: URL, environment: [String: String], keys: URL, store: URL) {
        let (project, environment) = try package(in: directory)
        #expect(try CLI.run(["init", "--json"], in: project, environment: environment).status == 0)
        let store = directory.appendingPathComponent("store")
        #expect(try CLI.run(["release", "init", "--store", store.path, "--json"], in: project, environment: environment).status == 0)
        return (project, environment, directory.appendingPathComponent("home/.config/patch/keys/tally"), store)
    }

    /// The release-security notes' §7: a root key in the folder of the online keys is one theft
    /// from a takeover. doctor and verify warn (never fail) until root.key is moved away.
    @Test func doctorAndVerifyWarnWhileTheRootKeySitsWithTheOnlineKeys() throws {
        try withScratchDirectory { directory in
            let (project, environment, keys, store) = try Self.initializedProjectAndStore(in: directory)

            func rootKeyWarnings() throws -> (doctor: [[String: Any]], verify: [String], verifyElsewhere: [String]) {
                let doctor = try CLI.run(["doctor", "--json"], in: project, environment: environment)
                let checks = ((doctor.result?["checks"] as? [[String: Any]]) ?? []).filter { $0["name"] as? String == "root_key_offline" }
                let verified = try CLI.run(["verify", store.path, "--json"], in: project, environment: environment)
                #expect(verified.status == 0, "a warning only: \(verified.stdout)")
                // Outside the project the folder is named with --key-dir.
                let elsewhere = try CLI.run(["verify", store.path, "--key-dir", keys.path, "--json"], in: directory, environment: environment)
                #expect(elsewhere.status == 0, "\(elsewhere.stdout)")
                let mentioning = { (result: CLIResult) in ((result.result?["warnings"] as? [String]) ?? []).filter { $0.contains("root.key") } }
                return (checks, mentioning(verified), mentioning(elsewhere))
            }

            let online = try rootKeyWarnings()
            #expect(online.doctor.count == 1 && online.doctor.first?["status"] as? String == "warning", "\(online.doctor)")
            let message = online.doctor.first?["detail"] as? String ?? ""
            #expect(message.contains("\(keys.path)/root.key sits in the same folder as the online keys (targets.key, snapshot.key, timestamp.key)"), "\(message)")
            #expect(message.contains("\(keys.path)/root.pub.json") && message.contains("Move root.key offline"), "how to move it: \(message)")
            #expect(online.verify == [message] && online.verifyElsewhere == [message], "\(online.verify) \(online.verifyElsewhere)")

            try FileManager.default.moveItem(at: keys.appendingPathComponent("root.key"), to: directory.appendingPathComponent("offline-root.key"))
            let offline = try rootKeyWarnings()
            #expect(offline.doctor.isEmpty && offline.verify.isEmpty && offline.verifyElsewhere.isEmpty, "\(offline)")
        }
    }

    /// `keys rotate` in a project leaves the new key in the project's key directory (the old one
    /// retired next to it, still private), so the next release signs with it and the store verifies.
    @Test func keysRotateInAProjectPutsTheNewKeyInItsKeyDirectory() throws {
        try withScratchDirectory { directory in
            let (project, environment, keys, store) = try Self.initializedProjectAndStore(in: directory)
            try Data(ReleaseCommandTests.module(seed: 3)).write(to: project.appendingPathComponent("a.wasm"))
            let first = try CLI.run(["release", "a.wasm", "--store", store.path, "--fingerprint", "fp-1", "--json"], in: project, environment: environment)
            #expect(first.status == 0, "\(first.stdout)")
            let oldKey = try Data(contentsOf: keys.appendingPathComponent("targets.key"))
            let oldKeyID = try #require((try CLI.run(["keys", "show", keys.appendingPathComponent("targets.key").path, "--json"]).result?["key"] as? [String: Any])?["keyid"] as? String)

            #expect(try CLI.run(["keys", "generate", "--out", "new", "--role", "targets", "--json"], in: directory).status == 0)
            let newKeyFile = directory.appendingPathComponent("new/targets.key")
            let rotated = try CLI.run(["keys", "rotate", "--role", "targets", "--new-key", newKeyFile.path, "--store", store.path, "--json"], in: project, environment: environment)
            #expect(rotated.status == 0, "\(rotated.stdout)\(rotated.stderr)")
            let retired = keys.appendingPathComponent("targets.retired-\(oldKeyID.prefix(16)).key")
            #expect(rotated.result?["retired_key"] as? String == retired.path, "\(rotated.stdout)")
            #expect(rotated.result?["key_directory"] as? String == keys.path)
            #expect(try Data(contentsOf: keys.appendingPathComponent("targets.key")) == Data(contentsOf: newKeyFile))
            #expect(try Data(contentsOf: keys.appendingPathComponent("targets.pub.json")) == Data(contentsOf: directory.appendingPathComponent("new/targets.pub.json")))
            #expect(try Data(contentsOf: retired) == oldKey)
            #expect(try Self.permissions(retired) == 0o600)
            #expect(try Self.permissions(keys.appendingPathComponent("targets.key")) == 0o600)

            // The next release needs no flag and no hand edit, and the store verifies.
            try Data(ReleaseCommandTests.module(seed: 4)).write(to: project.appendingPathComponent("b.wasm"))
            let second = try CLI.run(["release", "b.wasm", "--store", store.path, "--fingerprint", "fp-1", "--json"], in: project, environment: environment)
            #expect(second.status == 0, "\(second.stdout)")
            let verified = try CLI.run(["verify", store.path, "--json"], in: project, environment: environment)
            #expect(verified.status == 0, "\(verified.stdout)")
            // doctor agrees the folder is consistent.
            let doctor = try CLI.run(["doctor", "--json"], in: project, environment: environment)
            let check = ((doctor.result?["checks"] as? [[String: Any]]) ?? []).first { $0["name"] as? String == "signing_key_targets" }
            #expect(check?["status"] as? String == "ok", "\(doctor.stdout)")
        }
    }

    /// A project set up by a patchcli before the key directory (one Ed25519 key at
    /// `signing.privateKeyPath`): `doctor` and `release` say to run `init`, which keeps that key as
    /// the root key of the new key directory.
    @Test func anOlderProjectIsToldHowToMigrateAndInitMigratesIt() throws {
        try withScratchDirectory { directory in
            let (project, environment) = try Self.package(in: directory)
            let legacyKey = directory.appendingPathComponent("home/.config/patch/keys/tally.ed25519")
            try FileManager.default.createDirectory(at: legacyKey.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(try CLI.run(["keys", "generate", "--out", directory.appendingPathComponent("old").path, "--role", "root"]).status == 0)
            try FileManager.default.copyItem(at: directory.appendingPathComponent("old/root.key"), to: legacyKey)
            try """
                {"appKey": "tally", "apiBaseURL": "https://api.patchrelease.com/api/v1", "appTarget": "Tally", "channel": "production",
                 "project": {"kind": "swiftpm", "path": "Package.swift"}, "targets": [{"name": "Tally", "sourceRoots": ["Sources/Tally"]}], "version": 1,
                 "signing": {"privateKeyPath": "~/.config/patch/keys/tally.ed25519", "publicKeyFile": "Sources/Tally/Patch/PatchPublicKey.generated.swift"}}
                """.write(to: project.appendingPathComponent("patch.json"), atomically: true, encoding: .utf8)

            let doctor = try CLI.run(["doctor", "--json"], in: project, environment: environment)
            let keyCheck = ((doctor.result?["checks"] as? [[String: Any]]) ?? []).first { $0["name"] as? String == "key_directory" }
            #expect(keyCheck?["status"] as? String == "failure", "\(doctor.stdout)")
            #expect((keyCheck?["fix"] as? String)?.contains("run `patchcli init`") == true, "\(doctor.stdout)")
            let refused = try CLI.run(["release", "init", "--store", "store", "--json"], in: project, environment: environment)
            #expect(refused.status == 43, "\(refused.stdout)")
            #expect((refused.error?["hint"] as? String)?.contains("patchcli init") == true, "\(refused.stdout)")

            let migrated = try CLI.run(["init", "--json"], in: project, environment: environment)
            #expect(migrated.status == 0, "\(migrated.stdout)\(migrated.stderr)")
            #expect(migrated.result?["migrated_key"] as? String == "~/.config/patch/keys/tally.ed25519")
            let keys = directory.appendingPathComponent("home/.config/patch/keys/tally")
            #expect(try Data(contentsOf: keys.appendingPathComponent("root.key")) == Data(contentsOf: legacyKey))
            let config = try String(contentsOf: project.appendingPathComponent("patch.json"), encoding: .utf8)
            #expect(!config.contains("privateKeyPath") && config.contains("keyDirectory"), "\(config)")
            let created = try CLI.run(["release", "init", "--store", "store", "--json"], in: project, environment: environment)
            #expect(created.status == 0, "\(created.stdout)")
            let oldRoot = try CLI.run(["keys", "show", legacyKey.path, "--json"])
            #expect(try Self.rootKey(of: project.appendingPathComponent("store")).keyid == (oldRoot.result?["key"] as? [String: Any])?["keyid"] as? String)
        }
    }
}
