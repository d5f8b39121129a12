import Foundation
import PatchManifest
#if canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#elseif canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#endif

/// Why a key directory cannot be written or one of its keys read. Each case names the file.
public enum KeyDirectoryError: Error, CustomStringConvertible, Sendable {
    /// A key file already exists: keys are never replaced (rotation is `patchcli keys rotate`).
    case keyExists(path: String)
    case unwritable(path: String, reason: String)
    case unreadable(path: String, reason: String)
    case malformedKey(path: String, KeyError)
    case malformedPublicKey(path: String, detail: String)

    public var description: String {
        switch self {
        case let .keyExists(path): return "\(path): a key already exists there; patchcli never overwrites a key"
        case let .unwritable(path, reason): return "\(path): cannot be written (\(reason))"
        case let .unreadable(path, reason): return "\(path): cannot be read (\(reason))"
        case let .malformedKey(path, error): return "\(path): \(error)"
        case let .malformedPublicKey(path, detail): return "\(path): not a TUF public key object (\(detail))"
        }
    }
}

/// The folder holding a project's signing keys, one per TUF role: `<role>.key` (base64 of the
/// 32-byte Ed25519 seed, mode 0600) and `<role>.pub.json` (its TUF key object, canonical JSON), in a
/// folder of mode 0700 outside the repository. `keys generate` and `init` write it through `write`;
/// every command that signs the store reads it. A role whose `.pub.json` is here without its `.key`
/// is kept offline (the root key, typically): nothing generates a replacement for it.
public struct KeyDirectory: Sendable, Equatable {
    /// Where `init` puts a project's key directory: `<defaultParent>/<app key>`.
    public static let defaultParent = "~/.config/patch/keys"

    public let path: String

    public init(path: String) { self.path = path }

    public func privateKeyPath(_ role: TUFRole) -> String { file("\(role.rawValue).key") }
    public func publicKeyPath(_ role: TUFRole) -> String { file("\(role.rawValue).pub.json") }

    private func file(_ name: String) -> String { URL(fileURLWithPath: path).appendingPathComponent(name).path }

    /// The private key of `role`; nil when its file is not here.
    public func privateKey(_ role: TUFRole) throws(KeyDirectoryError) -> SigningKey? {
        let keyPath = privateKeyPath(role)
        guard FileManager.default.fileExists(atPath: keyPath) else { return nil }
        guard let data = FileManager.default.contents(atPath: keyPath) else {
            throw .unreadable(path: keyPath, reason: String(cString: strerror(errno)))
        }
        do {
            return try SigningKey(keyFileText: String(decoding: data, as: UTF8.self))
        } catch {
            throw .malformedKey(path: keyPath, error)
        }
    }

    /// The public key of `role` from its `.pub.json`; nil when that file is not here.
    public func publicKey(_ role: TUFRole) throws(KeyDirectoryError) -> TUFKey? {
        let publicPath = publicKeyPath(role)
        guard let data = FileManager.default.contents(atPath: publicPath) else { return nil }
        do {
            let key = try JSONValue.parse([UInt8](data)).decode(TUFKey.self)
            guard key.keytype == "ed25519", key.scheme == "ed25519", Hex.decode(key.keyval.public)?.count == 32 else {
                throw KeyDirectoryError.malformedPublicKey(path: publicPath, detail: "expected an ed25519 key of 32 bytes")
            }
            return key
        } catch let error as KeyDirectoryError {
            throw error
        } catch {
            throw .malformedPublicKey(path: publicPath, detail: "\(error)")
        }
    }

    /// Whether `role`'s key is kept elsewhere: its public key is here, its private key is not.
    public func isOffline(_ role: TUFRole) -> Bool {
        !FileManager.default.fileExists(atPath: privateKeyPath(role)) && FileManager.default.fileExists(atPath: publicKeyPath(role))
    }

    /// Why `root.key` should not be here, when it sits in this folder next to an online role's key
    /// (targets, snapshot, timestamp: the keys every release uses, so the folder lives where
    /// releases are made), and how to take it offline; nil when it does not. Whoever can read this
    /// folder could otherwise sign a new root and replace every key devices trust, where a stolen
    /// online key is undone by rotating it (release-security notes §7).
    public func rootKeyBesideOnlineKeys() -> String? {
        let online = [TUFRole.targets, .snapshot, .timestamp].filter { FileManager.default.fileExists(atPath: privateKeyPath($0)) }
        guard FileManager.default.fileExists(atPath: privateKeyPath(.root)), !online.isEmpty else { return nil }
        let names = online.map { "\($0.rawValue).key" }.joined(separator: ", ")
        return "\(privateKeyPath(.root)) sits in the same folder as the online keys (\(names)): whoever can read \(path) can sign a new root and replace every key devices trust. "
            + "Move root.key offline (an encrypted drive, a password manager) and keep \(publicKeyPath(.root)): releases need only the online keys; bring root.key back for `keys rotate` and `release init`"
    }

    /// Writes each key as `<role>.key` (0600 from creation on) and `<role>.pub.json`, creating the
    /// folder with mode 0700 when missing. Refuses before writing anything when a key of one of the
    /// roles is already here, and never replaces a key file even if one appears meanwhile.
    public func write(_ keys: [(role: TUFRole, key: SigningKey)]) throws(KeyDirectoryError) {
        guard !keys.isEmpty else { return }
        for (role, _) in keys where FileManager.default.fileExists(atPath: privateKeyPath(role)) {
            throw .keyExists(path: privateKeyPath(role))
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: path, reason: (error as NSError).localizedDescription)
        }
        for (role, key) in keys {
            try Self.writePrivate(key, to: privateKeyPath(role))
            // Replaces a stale public key of a role whose private key was removed: the new
            // private key is what signs from now on.
            try writePublic(key.publicKey, role: role)
        }
    }

    /// Where `replace` keeps a role's key once `keys rotate` has replaced it:
    /// `<role>.retired-<first 16 hex digits of its keyid>.key`, mode 0600.
    public func retiredKeyPath(_ role: TUFRole, keyid: String) -> String {
        file("\(role.rawValue).retired-\(keyid.prefix(16)).key")
    }

    /// Makes `key` the key of `role` here after `keys rotate` published it: the role's current key
    /// (if this folder holds it) stays as the retired file, then the new key takes `<role>.key` in
    /// one rename, so every moment the folder holds a usable key. A role kept offline gets its new
    /// `.pub.json` only. Returns the retired key's path, nil when there was none to retire.
    @discardableResult
    public func replace(_ role: TUFRole, with key: SigningKey) throws(KeyDirectoryError) -> String? {
        if isOffline(role) {
            try writePublic(key.publicKey, role: role)
            return nil
        }
        guard let current = try privateKey(role) else {
            try write([(role, key)])
            return nil
        }
        guard current.keyid != key.keyid else { return nil }
        let keyPath = privateKeyPath(role)
        let temporary = file(".\(role.rawValue).key.tmp-\(UUID().uuidString)")
        try Self.writePrivate(key, to: temporary)
        // A hard link keeps the old key's mode 0600 and never replaces an existing file.
        let retired = retiredKeyPath(role, keyid: current.keyid)
        if link(keyPath, retired) != 0, errno != EEXIST {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: retired, reason: reason)
        }
        guard rename(temporary, keyPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: keyPath, reason: reason)
        }
        try writePublic(key.publicKey, role: role)
        return retired
    }

    /// `<role>.pub.json`, replaced atomically.
    private func writePublic(_ key: TUFKey, role: TUFRole) throws(KeyDirectoryError) {
        do {
            let publicJSON = CanonicalJSON.serialize(try JSONValue(encoding: key)) + Array("\n".utf8)
            let files = StoreFiles(base: URL(fileURLWithPath: path))
            let temporary = try files.writeTemporary(for: "\(role.rawValue).pub.json", publicJSON)
            try files.replace("\(role.rawValue).pub.json", withTemporary: temporary)
        } catch let StoreError.unwritable(_, reason) {
            throw .unwritable(path: publicKeyPath(role), reason: reason)
        } catch {
            throw .unwritable(path: publicKeyPath(role), reason: "\(error)")
        }
    }

    /// A private key readable by its owner only, never replacing an existing key.
    private static func writePrivate(_ key: SigningKey, to path: String) throws(KeyDirectoryError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            let error = errno
            if error == EEXIST { throw .keyExists(path: path) }
            throw .unwritable(path: path, reason: String(cString: strerror(error)))
        }
        defer { close(descriptor) }
        // umask can only remove bits; set 0600 explicitly anyway in case the file system ignores the mode.
        fchmod(descriptor, 0o600)
        let bytes = Array(key.keyFileText.utf8)
        let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw .unwritable(path: path, reason: reason)
        }
    }
}
