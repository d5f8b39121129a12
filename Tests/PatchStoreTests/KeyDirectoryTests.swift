import Foundation
import PatchManifest
import Testing
@testable import PatchStore

/// `KeyDirectory.replace`, what `keys rotate` does to the folder once the store lists the new key.
@Suite struct KeyDirectoryTests {
    private static func scratch() -> KeyDirectory {
        KeyDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path)
    }

    private static func mode(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).map { $0 & 0o777 }
    }

    @Test func replaceRetiresTheOldKeyAndLeavesNoTemporaryFile() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let old = SigningKey.generate(), new = SigningKey.generate()
        try directory.write([(.targets, old)])

        let retired = try #require(try directory.replace(.targets, with: new))
        #expect(retired == directory.retiredKeyPath(.targets, keyid: old.keyid))
        #expect(try directory.privateKey(.targets)?.keyid == new.keyid)
        #expect(try directory.publicKey(.targets) == new.publicKey)
        #expect(try SigningKey(keyFileText: String(contentsOfFile: retired, encoding: .utf8)).keyid == old.keyid)
        #expect(try Self.mode(retired) == 0o600)
        #expect(try Self.mode(directory.privateKeyPath(.targets)) == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["targets.key", "targets.pub.json", "targets.retired-\(old.keyid.prefix(16)).key"])
        // The same key again changes nothing.
        #expect(try directory.replace(.targets, with: new) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == names)
    }

    @Test func anOfflineRoleGetsItsPublicKeyOnlyAndAMissingOneBothFiles() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let root = SigningKey.generate(), newRoot = SigningKey.generate(), timestamp = SigningKey.generate()
        try directory.write([(.root, root)])
        try FileManager.default.removeItem(atPath: directory.privateKeyPath(.root))
        #expect(directory.isOffline(.root))

        #expect(try directory.replace(.root, with: newRoot) == nil)
        #expect(directory.isOffline(.root), "the new root key stays wherever the old one was kept")
        #expect(try directory.publicKey(.root) == newRoot.publicKey)

        #expect(try directory.replace(.timestamp, with: timestamp) == nil)
        #expect(try directory.privateKey(.timestamp)?.keyid == timestamp.keyid)
    }
}
