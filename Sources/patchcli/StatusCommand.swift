import ArgumentParser
import Foundation
import PatchServer
import PatchStore

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Report adoption, errors and fallbacks per release from the events `serve` recorded.",
        discussion: """
            For each module version devices reported: downloads, activations, devices that activated
            it, devices running it now (their latest activation or fallback) as a share of every
            device seen, errors (with the commonest message) and fallbacks; update checks refused
            for a wrong app key, and diffs devices could not apply. With --store, each
            version is matched to its channel, fingerprint and rollout, and releases no device has
            reported yet are listed too. --events is the SQLite file or postgres:// URL serve writes.
            """)

    @Option(name: [.customLong("events"), .customLong("events-db")], help: ArgumentHelp(
        "The event store `patchcli serve` writes: its SQLite file, or its postgres://USER@HOST:PORT/DATABASE.", valueName: "PATH|URL"))
    var eventsDB = "patchcli-events.sqlite"
    @Option(help: "A release store to match versions with their releases.") var store: String?
    @OptionGroup var outputOptions: OutputOptions

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("status") {
            let releaseStore = store.map { ReleaseStore(directory: $0) }
            let records = try releaseStore.map { try $0.list(channel: nil, now: nil).flatMap(\.history) } ?? []
            let events = try await EventStoreOpening.open(eventsDB, create: false)
            let counts: AdoptionCounts
            do { counts = try await events.adoptionCounts() } catch {
                await events.close()
                throw error
            }
            await events.close()
            var report = AdoptionReport(counts: counts, records: records)
            if let releaseStore {
                // What `serve` would offer, read the way it reads it: artifacts that fail their check are not offered.
                report.markNotOffered(try ReleaseCatalog(store: releaseStore, state: releaseStore.loadState(now: nil)).unservable, records: records)
            }
            console.line("\(report.events) events from \(report.devices) devices; \(report.checkErrors) failed update checks")
            if !report.wrongAppKeyChecks.isEmpty {
                let keys = report.wrongAppKeyChecks.sorted { $0.key < $1.key }.map { "\($0.key.withControlCharactersEscaped): \($0.value)" }
                console.line("\(report.wrongAppKeyChecks.values.reduce(0, +)) update checks refused for a wrong app key (\(keys.joined(separator: ", ")))")
            }
            if !report.wastedDiffs.isEmpty {
                let versions = report.wastedDiffs.sorted { $0.key < $1.key }.map { "\($0.key.withControlCharactersEscaped): \($0.value)" }
                console.line("\(report.wastedDiffs.values.reduce(0, +)) diffs wasted: devices could not apply them and downloaded the full module (\(versions.joined(separator: ", ")))")
            }
            for (path, reason) in (report.unservable ?? [:]).sorted(by: { $0.key < $1.key }) {
                console.line("warning: serve does not offer \(path): \(reason)")
            }
            for release in report.releases {
                var placement = ""
                if let channel = release.channel, let counter = release.releaseCounter {
                    placement = "  \(channel) #\(counter) \(release.fingerprint ?? "") rollout \(release.rolloutPercent ?? 0)%\(release.source.map { " from \($0.summary)" } ?? "")"
                }
                console.line("\(release.version)\(placement)")
                console.line("  running on \(release.devicesRunning) devices (\(release.adoptionPercent)%), activated by \(release.devicesActivated); \(release.downloads) downloads, \(release.activations) activations, \(release.errors) errors, \(release.fallbacks) fallbacks")
                if let error = release.commonestError { console.line("  commonest error: \(error.withControlCharactersEscaped)") }
                if release.notOffered != nil { console.line("  NOT OFFERED: its artifact does not match the store's metadata; devices get the previous good release") }
            }
            return report
        }
    }
}
