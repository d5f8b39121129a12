import ArgumentParser
import Foundation
import PatchBuild
import PatchManifest
import PatchStore

/// Where private keys come from: `--key ROLE=PATH` (PATH `-` = stdin), the environment variable
/// `PATCHCLI_KEY_<ROLE>`, `<role>.key` in `--key-dir`, or else, in a project, in the key directory
/// `init` made, in that order. Never a command-line value: argv is visible to every user of the machine.
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("key"), help: ArgumentHelp("A private key file for a role, as ROLE=PATH (PATH '-' reads stdin). Repeatable.", valueName: "role=path"))
    var keyFiles: [String] = []

    @Option(help: "A directory holding <role>.key files, as `patchcli keys generate --out` writes them (default in a project: patch.json's signing.keyDirectory, where `patchcli init` put the keys).")
    var keyDir: String?

    /// The signing keys found for `roles`; roles without a key are left out (the store then says
    /// which key is missing and how to pass it). Run in a project (a `patch.json` in the current
    /// folder) without `--key-dir`, the project's key directory (`signing.keyDirectory`, where `init`
    /// put the keys) comes last.
    func signers(for roles: [TUFRole], stdin: inout StandardInputKey) throws -> RoleSigners {
        var keys: [TUFRole: [SigningKey]] = [:]
        var projectKeys: ProjectKeyDirectory?
        for role in roles {
            if let key = try load(role, stdin: &stdin) {
                keys[role] = [key]
                continue
            }
            // An explicit --key-dir replaces the project's folder: keys of two folders never mix.
            guard keyDir == nil else { continue }
            if projectKeys == nil { projectKeys = try ProjectKeyDirectory.find() }
            if let key = try projectKeys?.privateKey(role) { keys[role] = [key] }
        }
        var searched = keyDir
        if keyDir == nil, case let .directory(directory)? = projectKeys { searched = directory.path }
        return RoleSigners(keys, searchedDirectory: searched)
    }

    /// The key directory this command signs from: `--key-dir`, else the project's (nil outside a
    /// project, or in one whose patch.json predates the key directory).
    func keyDirectory() throws -> KeyDirectory? {
        if let keyDir { return KeyDirectory(path: keyDir) }
        if case let .directory(directory) = try ProjectKeyDirectory.find() { return directory }
        return nil
    }

    private func load(_ role: TUFRole, stdin: inout StandardInputKey) throws -> SigningKey? {
        for entry in keyFiles {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let named = TUFRole(rawValue: parts[0]) else {
                throw CommandFailure(kind: "usage", message: "--key \(entry): expected ROLE=PATH with ROLE one of root, targets, snapshot, timestamp", exitStatus: .usage, hint: "for example --key root=keys/root.key")
            }
            if named == role { return try KeyFile.read(parts[1], stdin: &stdin) }
        }
        if let value = ProcessInfo.processInfo.environment["PATCHCLI_KEY_\(role.rawValue.uppercased())"] {
            return try KeyFile.parse(value, source: "PATCHCLI_KEY_\(role.rawValue.uppercased())")
        }
        if let keyDir { return try KeyDirectory(path: keyDir).privateKey(role) }
        return nil
    }
}

/// The key directory of the project in the current folder, as its patch.json records it.
enum ProjectKeyDirectory {
    case directory(KeyDirectory)
    /// A patch.json from before the key directory: its one key signs no store role.
    case legacy(privateKeyPath: String)
    case none

    static func find() throws -> ProjectKeyDirectory {
        guard FileManager.default.fileExists(atPath: ProjectConfig.fileName) else { return .none }
        let signing = try ProjectSources.loadConfig(root: ".").signing
        if let directory = signing.keyDirectory {
            return .directory(KeyDirectory(path: ProjectConfig.expandingHome(directory, home: FileAccess.homeDirectory)))
        }
        return signing.privateKeyPath.map { .legacy(privateKeyPath: $0) } ?? .none
    }

    /// The folder a command that only inspects keys looks at: `--key-dir`, else the project's;
    /// nil outside a project, or when its patch.json cannot be read (such a command needs no keys).
    static func inspected(keyDir: String?) -> KeyDirectory? {
        if let keyDir { return KeyDirectory(path: keyDir) }
        if case let .directory(directory)? = try? find() { return directory }
        return nil
    }

    func privateKey(_ role: TUFRole) throws -> SigningKey? {
        switch self {
        case let .directory(directory):
            return try directory.privateKey(role)
        case let .legacy(privateKeyPath):
            throw CommandFailure(
                kind: "key_problem",
                message: "no \(role.rawValue) key: patch.json names signing.privateKeyPath (\(privateKeyPath)), the single key of an older patchcli, which signs no store role",
                exitStatus: .keyProblem,
                hint: "run `patchcli init` once to move to a key directory (it creates the store's role keys and keeps your key as the root key), or pass --key-dir")
        case .none:
            return nil
        }
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
