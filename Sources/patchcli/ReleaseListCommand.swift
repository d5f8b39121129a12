import ArgumentParser
import Foundation
import PatchStore

struct ReleaseList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List each channel's current releases (per fingerprint) and history.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only this channel.") var channel: String?
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable { var channels: [ChannelListing] }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("release list") {
            let channels = try storeOptions.releaseStore.list(channel: channel, now: nil)
            if channels.isEmpty { console.line("no releases yet") }
            for listing in channels {
                console.line("channel \(listing.channel) (release counter \(listing.releaseCounter))")
                console.line("current:")
                listing.current.forEach(console.record)
                console.line("history:")
                for record in listing.history.reversed() {
                    console.line("  #\(record.releaseCounter)  \(record.action.rawValue)  \(record.version)  \(record.fingerprint)  rollout \(record.rolloutPercent)%\(record.disabled ? "  DISABLED" : "")  \(record.createdAt)\(record.source.map { "  from \($0.summary)" } ?? "")")
                }
            }
            return Report(channels: channels)
        }
    }
}
