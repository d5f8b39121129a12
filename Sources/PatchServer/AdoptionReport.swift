import PatchManifest

/// What `patchcli status` reports for one release version: how many devices took it and how many
/// failed or fell back. Versions come from the events devices sent; with a store, each is matched
/// to its release record, and releases nobody reported on yet are listed with zeros.
public struct ReleaseAdoption: Codable, Sendable, Equatable {
    public var version: String
    public var channel: String?
    public var fingerprint: String?
    public var releaseCounter: Int?
    public var rolloutPercent: Int?
    /// The commit the release was built from, as its record says.
    public var source: ReleaseSource? = nil
    public var downloads: Int
    public var activations: Int
    /// Distinct devices that ever activated this version.
    public var devicesActivated: Int
    /// Distinct devices whose latest activation or fallback left them on this version.
    public var devicesRunning: Int
    /// `devicesRunning` as a share of every device that sent any event, in percent.
    public var adoptionPercent: Double
    public var errors: Int
    /// `fallback` events name the version the device fell back *to*.
    public var fallbacks: Int
    public var commonestError: String?
    /// With a store: why `serve` does not offer this release (its artifact no longer matches the
    /// store's metadata); devices get the previous good release instead.
    public var notOffered: String? = nil
}

public struct AdoptionReport: Codable, Sendable, Equatable {
    public var events: Int
    public var devices: Int
    /// `error` events without a module version: the update check itself failed.
    public var checkErrors: Int
    /// Update checks refused because their `app_key` is not the one of the fingerprint's release,
    /// by the key they sent (`(none)` for a check without one).
    public var wrongAppKeyChecks: [String: Int] = [:]
    /// Diffs devices downloaded but could not apply (they fetched the full module next), by the
    /// version the diff led to (`(unknown)` when no release of the store had that content).
    public var wastedDiffs: [String: Int] = [:]
    public var releases: [ReleaseAdoption]
    /// With a store: every artifact `serve` would offer but does not, because its file no longer
    /// matches the metadata (target path → why).
    public var unservable: [String: String]? = nil

    /// Records what `serve` does not offer (`ReleaseCatalog.unservable`): the list itself, and on
    /// each release whose module is among it, why.
    public mutating func markNotOffered(_ unservable: [String: String], records: [ReleaseRecord]) {
        self.unservable = unservable
        let modules = Dictionary(records.map { ($0.version, $0.module.path) }, uniquingKeysWith: { first, _ in first })
        for index in releases.indices {
            releases[index].notOffered = modules[releases[index].version].flatMap { unservable[$0] }
        }
    }

    /// Summarises the event database, attaching each version's release record from `records`.
    public static func summarize(_ database: EventDatabase, records: [ReleaseRecord] = []) throws(EventDatabaseError) -> AdoptionReport {
        let totals = try database.rows("SELECT COUNT(*), COUNT(DISTINCT device_id) FROM events").first ?? []
        let events = Int(totals.first.flatMap { $0 } ?? "0") ?? 0
        let devices = Int(totals.dropFirst().first.flatMap { $0 } ?? "0") ?? 0

        var byVersion: [String: ReleaseAdoption] = [:]
        func entry(_ version: String) -> ReleaseAdoption {
            byVersion[version] ?? ReleaseAdoption(
                version: version, downloads: 0, activations: 0, devicesActivated: 0, devicesRunning: 0, adoptionPercent: 0,
                errors: 0, fallbacks: 0)
        }
        var checkErrors = 0
        let counts = try database.rows("""
            SELECT module_version, SUM(event_type = 'download'), SUM(event_type = 'activation'), SUM(event_type = 'error'),
                   SUM(event_type = 'fallback'), COUNT(DISTINCT CASE WHEN event_type = 'activation' THEN device_id END)
            FROM events GROUP BY module_version
            """)
        for row in counts {
            let numbers = row.dropFirst().map { Int($0 ?? "0") ?? 0 }
            guard let version = row[0] else { checkErrors += numbers[2]; continue }
            var adoption = entry(version)
            adoption.downloads = numbers[0]
            adoption.activations = numbers[1]
            adoption.errors = numbers[2]
            adoption.fallbacks = numbers[3]
            adoption.devicesActivated = numbers[4]
            byVersion[version] = adoption
        }
        // SQLite returns the bare columns of the row holding MAX(id): each device's latest state.
        let running = try database.rows("""
            SELECT module_version, COUNT(*) FROM (
                SELECT device_id, module_version, MAX(id) FROM events
                WHERE event_type IN ('activation', 'fallback') GROUP BY device_id)
            WHERE module_version IS NOT NULL GROUP BY module_version
            """)
        for row in running {
            guard let version = row[0] else { continue }
            var adoption = entry(version)
            adoption.devicesRunning = Int(row[1] ?? "0") ?? 0
            adoption.adoptionPercent = devices == 0 ? 0 : (Double(adoption.devicesRunning) * 1000 / Double(devices)).rounded() / 10
            byVersion[version] = adoption
        }
        let commonErrors = try database.rows("""
            SELECT module_version, error_message, COUNT(*) AS n FROM events
            WHERE event_type = 'error' AND module_version IS NOT NULL AND error_message IS NOT NULL
            GROUP BY module_version, error_message ORDER BY n DESC, error_message
            """)
        for row in commonErrors {
            guard let version = row[0], byVersion[version]?.commonestError == nil else { continue }
            byVersion[version]?.commonestError = row[1]
        }
        for record in records {
            var adoption = entry(record.version)
            adoption.channel = record.channel
            adoption.fingerprint = record.fingerprint
            adoption.releaseCounter = record.releaseCounter
            adoption.rolloutPercent = record.rolloutPercent
            adoption.source = record.source
            byVersion[record.version] = adoption
        }
        let releases = byVersion.values.sorted {
            ($0.channel ?? "", $0.releaseCounter ?? Int.max, $0.version) < ($1.channel ?? "", $1.releaseCounter ?? Int.max, $1.version)
        }
        var wrongAppKeyChecks: [String: Int] = [:]
        for row in try database.rows("SELECT COALESCE(app_key, '(none)'), COUNT(*) FROM wrong_app_key_checks GROUP BY 1") {
            wrongAppKeyChecks[row[0] ?? "(none)"] = Int(row[1] ?? "0") ?? 0
        }
        var wastedDiffs: [String: Int] = [:]
        for row in try database.rows("SELECT COALESCE(module_version, '(unknown)'), COUNT(*) FROM wasted_diffs GROUP BY 1") {
            wastedDiffs[row[0] ?? "(unknown)"] = Int(row[1] ?? "0") ?? 0
        }
        return AdoptionReport(
            events: events, devices: devices, checkErrors: checkErrors, wrongAppKeyChecks: wrongAppKeyChecks, wastedDiffs: wastedDiffs, releases: releases)
    }
}
