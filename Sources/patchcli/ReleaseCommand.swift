import ArgumentParser

/// `patchcli release`: publish modules to the signed release store and manage its channels.
struct Release: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Publish a module to the signed release store; list, promote, roll out, roll back or disable releases.",
        discussion: """
            `patchcli release MODULE --store DIR --fingerprint F` is short for `patchcli release publish …`.
            Every change is a new release record under the channel's next counter, committed atomically
            by replacing metadata/timestamp.json. Store layout and algorithm: docs/release.md.
            """,
        subcommands: [
            ReleasePublish.self, ReleaseInit.self, ReleaseList.self, ReleasePromote.self,
            ReleaseRollout.self, ReleaseRollback.self, ReleaseDisable.self,
        ],
        defaultSubcommand: ReleasePublish.self
    )
}

/// Parses `25%`, `25` or `100%` for --rollout.
struct RolloutPercent: ExpressibleByArgument {
    let value: Int

    /// Help shows the default as a user types it (`100%`), not the struct.
    var defaultValueDescription: String { "\(value)%" }
    /// The value name usage errors quote, so `--rollout 150%` is told the valid range.
    static let valueName = "0-100%"

    static let everyone = RolloutPercent(value: 100)

    private init(value: Int) { self.value = value }

    init?(argument: String) {
        let digits = argument.hasSuffix("%") ? String(argument.dropLast()) : argument
        guard let value = Int(digits), (0...100).contains(value) else { return nil }
        self.value = value
    }
}
