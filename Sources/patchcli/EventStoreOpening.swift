import ArgumentParser
import PatchEventsPostgres
import PatchServer

/// `serve --events` and `status --events`: a SQLite file's path, or a `postgres://` URL for the
/// store replicas share (docs/serve.md, "Event stores").
enum EventStoreOpening {
    /// The store `value` names; `create` makes a missing SQLite file (`serve`), else it must exist.
    /// A PostgreSQL store is connected and migrated here, so a wrong URL or a database that cannot
    /// be reached fails at start (exit 72, 73).
    static func open(_ value: String, create: Bool, queueCapacity: Int = PostgresEventStore.defaultQueueCapacity) async throws -> any EventStore {
        guard PostgresURL.isPostgres(value) else { return try EventDatabase(path: value, create: create) }
        return try await PostgresEventStore(url: try PostgresURL(parsing: value), queueCapacity: queueCapacity)
    }
}

/// `--events-retention 90d`: a number of days.
struct RetentionDays: ExpressibleByArgument, Sendable {
    var days: Int

    init?(argument: String) {
        guard argument.hasSuffix("d"), let days = Int(argument.dropLast()), (1...36_500).contains(days) else { return nil }
        self.days = days
    }

    var duration: Duration { .seconds(days * 86_400) }
}
