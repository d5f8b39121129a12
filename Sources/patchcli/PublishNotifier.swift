import Foundation
import PatchManifest
import PatchNotify
import PatchServer

/// `serve --notify-on-publish`: watches the store the server answers from and, when a channel's
/// record for a fingerprint gets a new release counter (a publish, promote, rollout change or
/// rollback; not a disable), sends that release's silent push to the device tokens. The records
/// present when the server starts are not announced again.
struct PublishNotifier: Sendable {
    var watcher: StoreWatcher
    var delivery: APNsDelivery
    var interval: Duration
    var log: @Sendable (String) -> Void

    /// Runs until cancelled. A store that does not verify is left to the watcher (which logs it);
    /// the notifier only looks at catalogs the server would answer from.
    func run() async {
        var announced: [String: Int]?
        while !Task.isCancelled {
            if let catalog = try? watcher.catalog(now: Date()) {
                let current = catalog.currentRecords
                let fresh = announced.map { known in current.filter { !$0.disabled && $0.releaseCounter > known[Self.key($0), default: 0] } } ?? []
                announced = Dictionary(current.map { (Self.key($0), $0.releaseCounter) }, uniquingKeysWith: max)
                for record in fresh { await announce(record) }
            }
            try? await Task.sleep(for: interval)
        }
    }

    static func key(_ record: ReleaseRecord) -> String { "\(record.channel)\n\(record.fingerprint)" }

    private func announce(_ record: ReleaseRecord) async {
        let release = "\(record.channel) #\(record.releaseCounter) (\(record.version), fingerprint \(record.fingerprint))"
        do {
            let report = try await delivery.send(SilentPush(app: record.appKey, channel: record.channel, version: record.version))
            report.lines().forEach { log("notify \(release): \($0.trimmingCharacters(in: .whitespaces))") }
        } catch {
            let failure = CommandFailure(error)
            log("notify \(release): \(failure.message) (\(failure.hint))")
        }
    }
}
