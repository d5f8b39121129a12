import Synchronization

/// Tells when a device threw a diff away. The SDK fetches `diff_url`, applies it to its base and,
/// when the result fails the SHA-256, silently fetches `module_url` instead (sdk-contract §7.4);
/// it reports no event for that. Its downloads are plain GETs with no device id, but it makes them
/// one after the other on one keep-alive connection, so a full module fetched on the connection
/// (client address and port) that fetched a diff to that module shortly before is a wasted diff.
///
/// Diffs are remembered for `window`, at most `capacity` at once (the oldest dropped first): a
/// diff that applied is simply never matched.
final class DiffFallbacks: Sendable {
    static let window: Duration = .seconds(300)
    static let capacity = 10_000

    private struct Served {
        var diffPath: String
        var connection: String
        var at: ContinuousClock.Instant
    }

    /// Module content (raw SHA-256) → diffs to it served, oldest first.
    private let served = Mutex<(byModule: [String: [Served]], count: Int)>(([:], 0))

    /// A diff to the module content `module` (`ReleasePaths.moduleContent(ofDiff:)`) was sent on
    /// `connection`.
    func servedDiff(_ diffPath: String, to module: String, connection: String) {
        let now = ContinuousClock.now
        served.withLock { state in
            if state.count >= Self.capacity { Self.prune(&state, before: now - Self.window, keepingAtMost: Self.capacity - 1) }
            state.byModule[module, default: []].append(Served(diffPath: diffPath, connection: connection, at: now))
            state.count += 1
        }
    }

    /// The full module with that content was sent on `connection`: the diff to it sent on the same
    /// connection within the window, if any (forgotten: one fallback is one wasted diff).
    func servedModule(sha256: String, connection: String) -> String? {
        let now = ContinuousClock.now
        return served.withLock { state in
            guard let diffs = state.byModule[sha256],
                  let index = diffs.lastIndex(where: { $0.connection == connection && now - $0.at <= Self.window }) else { return nil }
            let diff = diffs[index]
            state.byModule[sha256]?.remove(at: index)
            if state.byModule[sha256]?.isEmpty == true { state.byModule[sha256] = nil }
            state.count -= 1
            return diff.diffPath
        }
    }

    /// Drops what is older than `cutoff`, then the oldest until at most `limit` are left.
    private static func prune(_ state: inout (byModule: [String: [Served]], count: Int), before cutoff: ContinuousClock.Instant, keepingAtMost limit: Int) {
        var all = state.byModule.flatMap { module, diffs in diffs.map { (module, $0) } }.filter { $0.1.at >= cutoff }
        all.sort { $0.1.at < $1.1.at }
        all.removeFirst(max(0, all.count - limit))
        state.byModule = Dictionary(grouping: all, by: \.0).mapValues { $0.map(\.1) }
        state.count = all.count
    }
}
