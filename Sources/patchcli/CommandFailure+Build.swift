import PatchBuild

/// `build`'s failures, one exit code per way a guest build can fail (docs/cli.md).
extension CommandFailure {
    init(_ error: GuestBuildError) {
        let message = error.description
        switch error {
        case .sourcesUnreadable:
            self.init(kind: "input_unavailable", message: message, exitStatus: .inputUnavailable, hint: "check the path and its permissions")
        case .invalidDeclarationID:
            self.init(kind: "usage", message: message, exitStatus: .usage, hint: "run `patchcli help build`")
        case .templatesMissing, .toolchain:
            self.init(kind: "toolchain_missing", message: message, exitStatus: .toolchainMissing,
                      hint: "`patchcli doctor` checks the toolchain and templates; pass --toolchain, or set PATCHCLI_TEMPLATES to the templates folder")
        case .nothingToPatch:
            self.init(kind: "nothing_to_patch", message: message, exitStatus: .nothingToPatch,
                      hint: "the message gives each declaration's reason and file:line")
        case .compileFailed:
            self.init(kind: "compile_failed", message: message, exitStatus: .guestCompileFailed,
                      hint: "this is usually a patchcli bug in the generated guest code; please report it with the sources")
        case .outputUnwritable:
            self.init(kind: "output_unwritable", message: message, exitStatus: .outputUnwritable, hint: "check that the output directory exists and is writable")
        case .invalidProbe:
            self.init(kind: "malformed_input", message: message, exitStatus: .malformedInput, hint: "fix the probe the message names (its format: docs/cli.md, `run --smoke`)")
        }
    }

    init(_ error: ProjectBuildError) {
        switch error {
        case let .guest(error):
            self.init(error)
        case let .changeDetection(.project(error)):
            self.init(error as Error)
        case .changeDetection(.baselineMissing):
            self.init(kind: "baseline_missing", message: error.description, exitStatus: .inputUnavailable,
                      hint: "run `patchcli prepare` in the project (and ship that build) before building patches")
        case .changeDetection(.baselineInvalid):
            self.init(kind: "malformed_input", message: error.description, exitStatus: .malformedInput,
                      hint: "run `patchcli prepare` to write the baseline again")
        case let .changeDetection(.platformNotShipped(_, shipped)):
            self.init(kind: "usage", message: error.description, exitStatus: .usage,
                      hint: "build for one of the platforms the baseline records: " + shipped.map { "--platform \($0.rawValue)" }.joined(separator: ", "))
        case let .assets(.invalidAssets(issues)):
            self.init(kind: "asset_invalid", message: "\(issues.count) asset(s) are invalid; nothing was written", exitStatus: .assetInvalid,
                      hint: "fix each asset where the detail says (file, key, reason; docs/assets.md \"Validation\") and build again",
                      detail: issues.map { "  \($0)" }.joined(separator: "\n"), result: ["invalid_assets": issues])
        case let .artifactTooLarge(size):
            self.init(size)
        }
    }

    init(_ size: ArtifactSizeReport) {
        self.init(kind: "artifact_too_large", message: size.description, exitStatus: .artifactTooLarge,
                  hint: "ship fewer or smaller assets (the largest are listed), or raise --max-artifact-bytes", result: size)
    }
}
