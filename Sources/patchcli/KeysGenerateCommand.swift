import ArgumentParser
import Foundation
import PatchManifest

struct KeysGenerate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate Ed25519 keys: <role>.key (private, 0600) and <role>.pub.json in a directory.")

    @Option(help: "Directory to write the keys into (created if missing, mode 0700).") var out: String
    @Option(name: .customLong("role"), help: "Role to generate a key for; repeatable (default: root, targets, snapshot, timestamp).")
    var roles: [TUFRole] = []
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var directory: String
        var keys: [PublicKeyReport]
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("keys generate") {
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw FileAccessError.unwritable(path: out, reason: FileAccess.reason(error))
            }
            var reports: [PublicKeyReport] = []
            for role in roles.isEmpty ? TUFRole.allCases : roles {
                let key = SigningKey.generate()
                let base = URL(fileURLWithPath: out)
                try KeyFile.writePrivate(key, to: base.appendingPathComponent("\(role.rawValue).key").path)
                let publicJSON = CanonicalJSON.serialize(try JSONValue(encoding: key.publicKey)) + Array("\n".utf8)
                try FileAccess.writeAtomically(publicJSON, to: base.appendingPathComponent("\(role.rawValue).pub.json").path)
                console.line("\(role.rawValue)  keyid \(key.keyid)  \(out)/\(role.rawValue).key")
                reports.append(PublicKeyReport(role: role, key: key.publicKey))
            }
            return Report(directory: out, keys: reports)
        }
    }
}
