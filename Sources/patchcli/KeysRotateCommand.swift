import ArgumentParser
import Foundation
import PatchManifest
import PatchStore

struct KeysRotate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Replace a role's key: publish root N+1 (signed by the current root key) and re-sign the store.",
        discussion: """
            Needs the current root key and the keys of the other online roles (--key, --key-dir or
            PATCHCLI_KEY_<ROLE>), and the new key from --new-key PATH ('-' = stdin) or PATCHCLI_NEW_KEY.
            When the role's old key is available too, the new files are signed with both, so clients
            accept them whether or not they have fetched the new root yet. The key directory
            (--key-dir, else the project's signing.keyDirectory) then holds the new key as
            <role>.key and the old one as <role>.retired-<keyid>.key, so the next release signs
            with the new key.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The role whose key is replaced.") var role: TUFRole
    @Option(help: "The new private key file ('-' reads stdin); or set PATCHCLI_NEW_KEY.") var newKey: String?
    @OptionGroup var keyOptions: KeyOptions
    @OptionGroup var publishFlags: PublishFlags
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var role: String
        var newKey: PublicKeyReport
        var receipt: PublishReceipt
        /// The key directory now holding the new key, and where its old key was kept.
        var keyDirectory: String?
        var retiredKey: String?
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("keys rotate") {
            var stdin = StandardInputKey()
            let replacement: SigningKey
            if let newKey {
                replacement = try KeyFile.read(newKey, stdin: &stdin)
            } else if let value = ProcessInfo.processInfo.environment["PATCHCLI_NEW_KEY"] {
                replacement = try KeyFile.parse(value, source: "PATCHCLI_NEW_KEY")
            } else {
                throw CommandFailure(kind: "usage", message: "no new key: pass --new-key PATH or set PATCHCLI_NEW_KEY", exitStatus: .usage, hint: "generate one with `patchcli keys generate --role \(role.rawValue) --out DIR`")
            }
            var signers = try keyOptions.signers(for: TUFRole.allCases, stdin: &stdin)
            // The role's old key (if given) keeps signing alongside the new one: dual signatures.
            signers.keys[role] = [replacement] + signers.keys(for: role).filter { $0.keyid != replacement.keyid }
            let receipt = try storeOptions.releaseStore.rotateKey(role: role, newKey: replacement.publicKey, signers: signers, options: publishFlags.options())
            console.line("\(role.rawValue) key is now \(replacement.keyid) (root version \(receipt.rootVersion))")
            console.files(receipt)
            var report = Report(role: role.rawValue, newKey: PublicKeyReport(role: role, key: replacement.publicKey), receipt: receipt)
            // Only once the store lists the new key: until then the old one is what signs.
            if !receipt.dryRun, let directory = try keyOptions.keyDirectory() {
                do {
                    report.retiredKey = try directory.replace(role, with: replacement)
                } catch {
                    throw CommandFailure(
                        kind: "key_problem", message: "the store now uses the new \(role.rawValue) key, but \(error)", exitStatus: .keyProblem,
                        hint: "copy the new key to \(directory.privateKeyPath(role)) by hand (keep the old one elsewhere) before the next release")
                }
                report.keyDirectory = directory.path
                console.line("  \(directory.privateKeyPath(role)) holds the new key\(report.retiredKey.map { "; the old one is kept as \($0)" } ?? "")")
            }
            return report
        }
    }
}
