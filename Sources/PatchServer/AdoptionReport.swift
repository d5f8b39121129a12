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

    /// Summarises the SQLite event database, attaching each version's release record from `records`.
    public static func summarize(_ database: EventDatabase, records: [ReleaseRecord] = []) throws(EventDatabaseError) -> AdoptionReport {
        AdoptionReport(counts: try database.adoptionCounts(), records: records)
    }
}

extension AdoptionReport {
    /// The report of what a store counted (`EventStore.adoptionCounts`), each version matched to
    /// its release record from `records`; releases nobody reported on are listed with zeros. The
    /// one assembly of every store's counts: `status` over SQLite and PostgreSQL agree.
    public init(counts: AdoptionCounts, records: [ReleaseRecord] = []) {
        var byVersion: [String: ReleaseAdoption] = [:]
        func entry(_ version: String) -> ReleaseAdoption {
            byVersion[version] ?? ReleaseAdoption(
                version: version, downloads: 0, activations: 0, devicesActivated: 0, devicesRunning: 0, adoptionPercent: 0,
                errors: 0, fallbacks: 0)
        }
        var checkErrors = 0
        for row in counts.versions {
            guard let version = row.version else { checkErrors += row.errors; continue }
            var adoption = entry(version)
            adoption.downloads = row.downloads
            adoption.activations = row.activations
            adoption.errors = row.errors
            adoption.fallbacks = row.fallbacks
            adoption.devicesActivated = row.devicesActivated
            byVersion[version] = adoption
        }
        for (version, running) in counts.devicesRunning {
            var adoption = entry(version)
            adoption.devicesRunning = running
            adoption.adoptionPercent = counts.devices == 0 ? 0 : (Double(running) * 1000 / Double(counts.devices)).rounded() / 10
            byVersion[version] = adoption
        }
        for (version, message) in counts.commonestErrors where byVersion[version] != nil {
            byVersion[version]?.commonestError = message
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
        self.init(
            events: counts.events, devices: counts.devices, checkErrors: checkErrors, wrongAppKeyChecks: counts.wrongAppKeyChecks,
            wastedDiffs: counts.wastedDiffs, releases: releases)
    }
}
