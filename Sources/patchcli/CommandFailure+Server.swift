import PatchEventsPostgres
import PatchServer

/// `serve` (47), its request log (7, an output) and the event store behind `serve` and `status`
/// (48 for SQLite, 72-73 for PostgreSQL), docs/cli.md.
extension CommandFailure {
    init(serve error: ServeError) {
        let portOption = switch error { case let .cannotListen(_, _, _, portOption): portOption }
        self.init(kind: "serve_failed", message: error.description, exitStatus: .serveFailed,
                  hint: "pass a free \(portOption) (or another host), or stop the process listening there")
    }

    init(events error: EventDatabaseError) {
        let hint = switch error {
        case .notFound: "pass the --events that `patchcli serve` writes"
        case .cannotOpen: "check the --events path and its directory's permissions"
        case .statementFailed: "the database may be damaged or held by another writer; keep a copy and start `serve` on a new --events file"
        case .newerSchema: "read it with the newer patchcli that wrote it"
        }
        self.init(kind: "events_db", message: error.description, exitStatus: .eventDatabase, hint: hint)
    }

    init(postgres error: PostgresEventStoreError) {
        switch error {
        case .badURL:
            self.init(kind: "events_url", message: error.description, exitStatus: .eventsURL,
                      hint: "pass --events postgres://USER@HOST:PORT/DATABASE (password in PGPASSWORD), or a SQLite file's path")
        case .unreachable:
            self.init(kind: "events_unreachable", message: error.description, exitStatus: .eventsUnreachable,
                      hint: "check that PostgreSQL runs there, accepts this user (pg_hba.conf) and has the database (createdb)")
        case .newerSchema:
            self.init(kind: "events_unreachable", message: error.description, exitStatus: .eventsUnreachable,
                      hint: "upgrade this patchcli to the one that migrated the database")
        }
    }

    init(requestLog error: RequestLogError) {
        self.init(kind: "output_unwritable", message: error.description, exitStatus: .outputUnwritable, hint: "pass a --log-file in a writable directory, or none to log on stderr")
    }
}
