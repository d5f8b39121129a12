import PatchDiff
import PatchRuntime
import PatchBuild

/// Maps each library's typed errors onto the user-facing failure: a stable `kind` for --json,
/// the library's own message, the exit code of docs/cli.md and, where the user can act, a hint.
extension CommandFailure {
    init(_ error: Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as FileAccessError:
            self.init(fileAccess: error)
        case let error as CodecError:
            self.init(codec: error)
        case let error as BSPatchError:
            self.init(patch: error)
        case let error as BSDiffError:
            self.init(kind: "diff_failed", message: error.description, exitStatus: .limitExceeded, hint: nil)
        case let error as RuntimeError:
            self.init(runtime: error)
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
        case let error as ToolchainError:
            self.init(kind: "toolchain_missing", message: error.description, exitStatus: .toolchainMissing,
                      hint: "pass --toolchain /path/to/swift-toolchain (the directory holding usr/bin/swiftc)")
        case let error as GuestBuildError:
            self.init(error)
        default:
            self.init(kind: "internal", message: String(describing: error), exitStatus: .internalError,
                      hint: "this is a bug in patchcli; please report it with the command you ran")
        }
    }

    private init(fileAccess error: FileAccessError) {
        switch error {
        case .notFound, .isDirectory, .unreadable:
            self.init(kind: "input_unavailable", message: error.description, exitStatus: .inputUnavailable, hint: "check the path and its permissions")
        case .unwritable:
            self.init(kind: "output_unwritable", message: error.description, exitStatus: .outputUnwritable, hint: "check that the output directory exists and is writable")
        case .outputIsInput:
            self.init(kind: "usage", message: error.description, exitStatus: .usage, hint: "choose a different output path")
        }
    }

    private init(codec error: CodecError) {
        switch error {
        case .outputLimitExceeded:
            self.init(kind: "limit_exceeded", message: error.description, exitStatus: .limitExceeded, hint: "raise --max-output-size if the input is trusted")
        case .libraryFailure:
            self.init(kind: "codec_failure", message: error.description, exitStatus: .internalError, hint: nil)
        case .corrupt, .truncated, .trailingData:
            self.init(kind: "malformed_input", message: error.description, exitStatus: .malformedInput, hint: "check that the file is complete and of the codec given")
        }
    }

    private init(patch error: BSPatchError) {
        switch error {
        case .newSizeExceedsLimit, .tooManyControlEntries:
            self.init(kind: "limit_exceeded", message: error.description, exitStatus: .limitExceeded, hint: "raise --max-output-size only if the patch comes from a trusted source")
        case .outputFailed:
            self.init(kind: "output_unwritable", message: error.description, exitStatus: .outputUnwritable, hint: "check that the output directory exists and is writable")
        case .oldReadOutOfRange, .oldPositionOverflow, .resultTooShort:
            self.init(kind: "patch_mismatch", message: error.description, exitStatus: .malformedInput, hint: "check that OLD is the file the patch was made against")
        default:
            self.init(kind: "malformed_patch", message: error.description, exitStatus: .malformedInput, hint: "the patch is damaged or not a BSDIFF40 patch; create it again with `patchcli diff`")
        }
    }
}
