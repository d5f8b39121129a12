import ArgumentParser

/// `patchcli keys`: the Ed25519 keys that sign the release store's TUF roles.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Generate, show and rotate the keys that sign the release store.",
        discussion: """
            Private keys are read from a file (--key ROLE=PATH, --key-dir), stdin (PATH '-') or the
            environment (PATCHCLI_KEY_<ROLE>), never from a command-line value. Key files are written 0600.
            """,
        subcommands: [KeysGenerate.self, KeysShow.self, KeysRotate.self]
    )
}
