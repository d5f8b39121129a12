import PatchBuild

/// Maps each library's typed errors onto the user-facing failure: a stable `kind` for --json,
/// the library's own message, the exit code of docs/cli.md and, where the user can act, a hint.
extension CommandFailure {
    init(_ error: Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as FileAccessError:
            switch error {
            case .notFound, .isDirectory, .unreadable:
                self.init(kind: "input_unavailable", message: error.description, exitStatus: .inputUnavailable, hint: nil)
            case .unwritable:
                self.init(kind: "output_unwritable", message: error.description, exitStatus: .outputUnwritable, hint: nil)
            case .outputIsInput:
                self.init(kind: "usage", message: error.description, exitStatus: .usage, hint: "choose an output path that is not an input")
            }
        case let error as ProjectError:
            switch error {
            case .configMissing:
                self.init(kind: "config_missing", message: error.description, exitStatus: .inputUnavailable,
                          hint: "run `patchcli init` in the project folder, or pass --project")
            case .config, .sourceRootMissing:
                self.init(kind: "malformed_config", message: error.description, exitStatus: .malformedInput, hint: nil)
            case .unreadable:
                self.init(kind: "input_unavailable", message: error.description, exitStatus: .inputUnavailable, hint: nil)
            }
        case let error as InitError:
            self.init(kind: error.kind, message: error.description, exitStatus: error.isUsage ? .usage : .malformedInput, hint: error.hint)
        default:
            self.init(kind: "internal", message: String(describing: error), exitStatus: .internalError,
                      hint: "this is a bug in patchcli; please report it with the command you ran")
        }
    }
}
