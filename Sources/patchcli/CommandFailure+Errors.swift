import PatchDiff
import PatchRuntime
import PatchBuild
import PatchManifest
import PatchNotify
import PatchEventsPostgres
import PatchServer
import PatchStore
import ProjectWiring

/// Maps each library's typed errors onto the user-facing failure: a stable `kind` for --json,
/// the library's own message, the exit code of docs/cli.md and, where the user can act, a hint.
extension CommandFailure {
    /// The hint of a failure that only a fix in patchcli can cure.
    static let reportBug = "this is a bug in patchcli; please report it with the command you ran"

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
            self.init(kind: "diff_failed", message: error.description, exitStatus: .limitExceeded,
                      hint: "a module that large is beyond what devices patch; ship it whole with `patchcli release`")
        case let error as RuntimeError:
            self.init(runtime: error)
        case let error as ProjectError:
            switch error {
            case .configMissing:
                self.init(kind: "config_missing", message: error.description, exitStatus: .inputUnavailable,
                          hint: "run `patchcli init` in the project folder, or pass --project")
            case .config, .sourceRootMissing:
                self.init(kind: "malformed_config", message: error.description, exitStatus: .malformedInput,
                          hint: "fix patch.json where the message says (its fields: docs/prepare.md)")
            case .unreadable:
                self.init(kind: "input_unavailable", message: error.description, exitStatus: .inputUnavailable, hint: "check the path and its permissions")
            }
        case let InitError.keys(error):
            self.init(keyDirectory: error)
        case let error as InitError:
            self.init(kind: error.kind, message: error.description, exitStatus: error.isUsage ? .usage : error.isMissingInput ? .inputUnavailable : .malformedInput, hint: error.hint)
        case let error as WiringError:
            self.init(kind: error.kind, message: error.description, exitStatus: .malformedInput, hint: error.hint)
        case let error as ToolchainError:
            self.init(kind: "toolchain_missing", message: error.description, exitStatus: .toolchainMissing,
                      hint: "pass --toolchain /path/to/swift-toolchain (the directory holding usr/bin/swiftc)")
        case let error as GuestBuildError:
            self.init(error)
        case let error as ProjectBuildError:
            self.init(error)
        case let error as StoreError:
            self.init(store: error)
        case let error as KeyDirectoryError:
            self.init(keyDirectory: error)
        case let error as ServeError:
            self.init(serve: error)
        case let error as NotifyError:
            self.init(notify: error)
        case let error as EventDatabaseError:
            self.init(events: error)
        case let error as PostgresEventStoreError:
            self.init(postgres: error)
        case let error as RequestLogError:
            self.init(requestLog: error)
        default:
            self.init(kind: "internal", message: String(describing: error), exitStatus: .internalError, hint: Self.reportBug)
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
            self.init(kind: "codec_failure", message: error.description, exitStatus: .internalError, hint: Self.reportBug)
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

    private init(keyDirectory error: KeyDirectoryError) {
        switch error {
        case .keyExists:
            self.init(kind: "output_exists", message: error.description, exitStatus: .outputUnwritable, hint: "choose another key directory, or move the old key away (rotate a store's key with `patchcli keys rotate`)")
        case .unwritable:
            self.init(kind: "output_unwritable", message: error.description, exitStatus: .outputUnwritable, hint: "check that the key directory's parent exists and is writable")
        case .unreadable:
            self.init(kind: "key_problem", message: error.description, exitStatus: .keyProblem, hint: "check the key file's owner and permissions (0600, readable by you)")
        case .malformedKey, .malformedPublicKey:
            self.init(kind: "key_invalid", message: error.description, exitStatus: .keyProblem, hint: "restore the key from its backup, or generate keys with `patchcli keys generate`")
        }
    }

    /// Release-store failures use the 40-49 block of docs/cli.md.
    private init(store error: StoreError) {
        let message = error.description
        switch error {
        case .invalidMetadata(_, .expired):
            self.init(kind: "metadata_expired", message: message, exitStatus: .metadataExpired, hint: "publish or re-sign the store before clients reject it")
        case .invalidMetadata, .versionMismatch, .hashMismatch, .missingFile, .invalidRecord, .rootChainBroken, .existingFileDiffers, .artifactCodec:
            self.init(kind: "store_invalid", message: message, exitStatus: .storeInvalid, hint: "the store was modified outside patchcli or is damaged; restore it from a backup")
        case .rollbackDetected, .rollbackBelowTrusted:
            self.init(kind: "store_rollback", message: message, exitStatus: .storeInvalid, hint: "the store serves older metadata than was trusted: check the host or CDN serves the latest files")
        case .lockHeld, .concurrentCommit:
            self.init(kind: "publish_conflict", message: message, exitStatus: .publishConflict, hint: "run the command again once the other publish has finished")
        case .missingSigner, .keyNotInRoot:
            self.init(kind: "key_problem", message: message, exitStatus: .keyProblem,
                      hint: "`patchcli keys show` lists the keys a key directory holds and the store's root lists")
        case .moduleRejected:
            self.init(kind: "module_rejected", message: message, exitStatus: .moduleFailedVerification, hint: "fix the module and rebuild it")
        case .moduleTooLarge, .tooLarge:
            self.init(kind: "limit_exceeded", message: message, exitStatus: .limitExceeded,
                      hint: "split the patch into smaller releases, or ship the change with an app release")
        case .emptyChannel, .unknownFingerprint, .ambiguousFingerprint, .nothingToRollBack, .unknownReleaseCounter:
            self.init(kind: "release_not_found", message: message, exitStatus: .releaseNotFound, hint: "see `patchcli release list --store DIR`")
        case .notInitialized:
            self.init(kind: "store_state", message: message, exitStatus: .storeState, hint: "create the store with `patchcli release init --store DIR`")
        case .alreadyInitialized:
            self.init(kind: "store_state", message: message, exitStatus: .storeState, hint: "the store exists: publish to it with `patchcli release`")
        case .releaseField:
            self.init(kind: "usage", message: message, exitStatus: .usage, hint: "`patchcli release --help` shows the options")
        case .unreadable:
            self.init(kind: "input_unavailable", message: message, exitStatus: .inputUnavailable, hint: "check the store path and its permissions")
        case .unwritable:
            self.init(kind: "output_unwritable", message: message, exitStatus: .outputUnwritable, hint: "check the store directory is writable and the disk is not full")
        case .injectedFault:
            self.init(kind: "publish_aborted", message: message, exitStatus: .publishAborted,
                      hint: "PATCHCLI_FAULT_AT injected this failure (tests only); unset it to publish")
        }
    }
}
