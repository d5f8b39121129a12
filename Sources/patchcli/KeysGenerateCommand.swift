import ArgumentParser
import Foundation
import PatchManifest
import PatchStore

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
            let directory = KeyDirectory(path: out)
            let keys = TUFRole.allCases.filter { roles.isEmpty || roles.contains($0) }.map { (role: $0, key: SigningKey.generate()) }
            try directory.write(keys)
            for (role, key) in keys { console.line("\(role.rawValue)  keyid \(key.keyid)  \(directory.privateKeyPath(role))") }
            return Report(directory: out, keys: keys.map { PublicKeyReport(role: $0.role, key: $0.key.publicKey) })
        }
    }
}
