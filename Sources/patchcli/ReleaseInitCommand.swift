import ArgumentParser
import PatchManifest
import PatchStore

struct ReleaseInit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create an empty release store: root, targets, snapshot and timestamp version 1.",
        discussion: """
            Needs the private key of every role: --key, PATCHCLI_KEY_<ROLE>, --key-dir (as `patchcli keys
            generate` writes it), or, run in a project, the key directory `patchcli init` created
            (signing.keyDirectory in patch.json). Its root key is the one the app embeds as its trust
            anchor (the generated PatchPublicKey file).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var store: String
        var keys: [PublicKeyReport]
        var receipt: PublishReceipt
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release init") {
            var stdin = StandardInputKey()
            let signers = try keyOptions.signers(for: TUFRole.allCases, stdin: &stdin)
            var roleKeys: [TUFRole: TUFKey] = [:]
            for role in TUFRole.allCases {
                guard let key = signers.keys(for: role).first else { throw StoreError.missingSigner(role: role, searchedDirectory: signers.searchedDirectory) }
                roleKeys[role] = key.publicKey
            }
            let receipt = try storeOptions.releaseStore.initialize(roleKeys: roleKeys, signers: signers, options: publishFlags.options())
            console.line("initialized release store \(storeOptions.store)")
            console.files(receipt)
            return Report(store: storeOptions.store, keys: TUFRole.allCases.compactMap { role in roleKeys[role].map { PublicKeyReport(role: role, key: $0) } }, receipt: receipt)
        }
    }
}
