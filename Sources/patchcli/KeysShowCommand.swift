import ArgumentParser
import Foundation
import PatchManifest
import PatchStore

struct KeysShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the public key and keyid of a private key file, or the keys a store's root trusts.")

    @Argument(help: "A private key file ('-' reads stdin). Omit it to show --store's keys.") var keyFile: String?
    @Option(help: "A release store: show each role's keyids and threshold from its current root.") var store: String?
    @OptionGroup var outputOptions: OutputOptions

    struct RoleReport: Encodable {
        var role: String
        var threshold: Int
        var keys: [PublicKeyReport]
    }

    struct Report: Encodable {
        var key: PublicKeyReport?
        var rootVersion: Int?
        var rootExpires: String?
        var roles: [RoleReport]?
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("keys show") {
            if let keyFile {
                var stdin = StandardInputKey()
                let key = try KeyFile.read(keyFile, stdin: &stdin)
                console.line("keyid \(key.keyid)")
                console.line(String(decoding: CanonicalJSON.encode(try JSONValue(encoding: key.publicKey)), as: UTF8.self))
                return Report(key: PublicKeyReport(role: nil, key: key.publicKey))
            }
            guard let store else {
                throw CommandFailure(kind: "usage", message: "give a key file or --store DIR", exitStatus: .usage, hint: "patchcli keys show root.key, or patchcli keys show --store ./store")
            }
            let state = try ReleaseStore(directory: store).loadState(now: nil)
            console.line("root version \(state.root.version), expires \(state.root.expires)")
            var roles: [RoleReport] = []
            for role in TUFRole.allCases {
                let keys = state.root.keys(for: role)
                let threshold = state.root.roles[role.rawValue]?.threshold ?? 0
                console.line("\(role.rawValue)  threshold \(threshold)  " + keys.map(\.keyid).joined(separator: ", "))
                roles.append(RoleReport(role: role.rawValue, threshold: threshold, keys: keys.map { PublicKeyReport(role: role, key: $0) }))
            }
            return Report(rootVersion: state.root.version, rootExpires: state.root.expires, roles: roles)
        }
    }
}
