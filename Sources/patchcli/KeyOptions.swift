import ArgumentParser
import Foundation
import PatchManifest
import PatchStore

/// Where private keys come from: `--key ROLE=PATH` (PATH `-` = stdin), the environment variable
/// `PATCHCLI_KEY_<ROLE>`, or `<role>.key` in `--key-dir`, in that order. Never a command-line value:
/// argv is visible to every user of the machine.
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("key"), help: ArgumentHelp("A private key file for a role, as ROLE=PATH (PATH '-' reads stdin). Repeatable.", valueName: "role=path"))
    var keyFiles: [String] = []

    @Option(help: "A directory holding <role>.key files, as `patchcli keys generate --out` writes them.")
    var keyDir: String?

    /// The signing keys found for `roles`; roles without a key are left out (the store then says
    /// which key is missing and how to pass it).
    func signers(for roles: [TUFRole], stdin: inout StandardInputKey) throws -> RoleSigners {
        var keys: [TUFRole: [SigningKey]] = [:]
        for role in roles {
            if let key = try load(role, stdin: &stdin) { keys[role] = [key] }
        }
        return RoleSigners(keys)
    }

    func load(_ role: TUFRole, stdin: inout StandardInputKey) throws -> SigningKey? {
        for entry in keyFiles {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let named = TUFRole(rawValue: parts[0]) else {
                throw CommandFailure(kind: "usage", message: "--key \(entry): expected ROLE=PATH with ROLE one of root, targets, snapshot, timestamp", exitStatus: .usage, hint: nil)
            }
            if named == role { return try KeyFile.read(parts[1], stdin: &stdin) }
        }
        if let value = ProcessInfo.processInfo.environment["PATCHCLI_KEY_\(role.rawValue.uppercased())"] {
            return try KeyFile.parse(value, source: "PATCHCLI_KEY_\(role.rawValue.uppercased())")
        }
        if let keyDir {
            let path = URL(fileURLWithPath: keyDir).appendingPathComponent("\(role.rawValue).key").path
            if FileManager.default.fileExists(atPath: path) { return try KeyFile.read(path, stdin: &stdin) }
        }
        return nil
    }
}

/// Standard input holds at most one key per invocation; this tracks whether it has been used.
struct StandardInputKey {
    private var consumed = false

    mutating func read() throws -> String {
        guard !consumed else {
            throw CommandFailure(kind: "usage", message: "only one key can be read from stdin per command", exitStatus: .usage, hint: "pass the other keys as files or PATCHCLI_KEY_<ROLE>")
        }
        consumed = true
        return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
}

/// Reading and writing the private key file format (base64 of the 32-byte Ed25519 seed).
enum KeyFile {
    static func read(_ path: String, stdin: inout StandardInputKey) throws -> SigningKey {
        if path == "-" { return try parse(try stdin.read(), source: "stdin") }
        return try parse(String(decoding: try FileAccess.read(path), as: UTF8.self), source: path)
    }

    static func parse(_ text: String, source: String) throws -> SigningKey {
        do { return try SigningKey(keyFileText: text) } catch {
            throw CommandFailure(kind: "key_invalid", message: "\(source): \(error)", exitStatus: .keyProblem, hint: "generate keys with `patchcli keys generate`")
        }
    }

    /// Writes a private key readable by its owner only (0600), never replacing an existing key.
    static func writePrivate(_ key: SigningKey, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            let error = errno
            if error == EEXIST {
                throw CommandFailure(kind: "output_exists", message: "\(path): a key already exists there; patchcli never overwrites a key", exitStatus: .outputUnwritable, hint: "choose another --out directory or move the old key away")
            }
            throw FileAccessError.unwritable(path: path, reason: String(cString: strerror(error)))
        }
        defer { close(descriptor) }
        // umask can only remove bits; set 0600 explicitly anyway in case the file system ignores the mode.
        fchmod(descriptor, 0o600)
        let bytes = Array(key.keyFileText.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            throw FileAccessError.unwritable(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

/// The public key JSON a user shares or embeds: TUF's key object plus its keyid.
struct PublicKeyReport: Encodable {
    var role: String?
    var keyid: String
    var key: TUFKey

    init(role: TUFRole?, key: TUFKey) {
        self.role = role?.rawValue
        self.keyid = key.keyid
        self.key = key
    }
}

extension TUFRole: ExpressibleByArgument {}
