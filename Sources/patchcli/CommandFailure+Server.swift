import PatchServer

/// `serve` (47), its request log (7, an output) and the event database behind `serve` and `status`
/// (48), docs/cli.md.
extension CommandFailure {
    init(serve error: ServeError) {
        self.init(kind: "serve_failed", message: error.description, exitStatus: .serveFailed, hint: nil)
    }

    init(events error: EventDatabaseError) {
        let hint: String? = switch error {
        case .notFound: "pass the --events-db that `patchcli serve` writes"
        case .cannotOpen, .statementFailed, .newerSchema: nil
        }
        self.init(kind: "events_db", message: error.description, exitStatus: .eventDatabase, hint: hint)
    }

    init(requestLog error: RequestLogError) {
        self.init(kind: "output_unwritable", message: error.description, exitStatus: .outputUnwritable, hint: "pass a --log-file in a writable directory, or none to log on stderr")
    }
}
