import ArgumentParser
import Foundation
import PatchAssets
import PatchBuild
import PatchManifest
import PatchRuntime

/// `patchcli build`: finds what changed since the baseline `prepare` recorded, compiles the changed
/// functions the shipped binary routes into one guest wasm module with its manifest and symbol map,
/// checks the module's smoke probes and reports every change as patched or native-only.
struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a patch module (module.wasm + manifest.json) from what changed since `prepare`'s baseline.",
        discussion: """
            In a project set up by `patchcli init`/`prepare`, compares every function, method, computed property,
            view body and stored layout with .patch/baseline.json. Changed functions the shipped binary routes
            (`// @patchable`) are compiled with everything they use into module.wasm; every other change is
            reported native-only with its reason and file:line. Details: docs/cli.md "build".

            --export ID (repeatable, with --sources) skips change detection and builds the named declarations:
            Type.name(label:_:) or name(label:).

            Smoke probes: a comment directly above a function,
              // @probe {"lines": []} -> {"value": {"cents": 0, "currency": "USD"}}
            is run against the module before the build succeeds (--skip-probes to skip) and copied into
            manifest.json for `patchcli run --smoke` and `release`.

            Outputs in -o DIR (default .patch/build in the project): module.wasm (no custom sections),
            module.unstripped.wasm, symbols.json, manifest.json, PatchGuest.swift (the generated guest source).
            When assets (colors, strings, images, JSON config) changed since the baseline, also
            artifact/patch.povr (POVR: the resource overlay around module.wasm, or around an empty module
            when no code changed) and artifact/manifest.json: release that artifact (docs/assets.md).
            Exit codes: 31 toolchain missing, 32 guest compile failed, 33 nothing to patch, 34 no changes since
            the baseline, 35 native changes present (without --allow-native-changes), 36 coverage below
            --min-coverage, 27 a smoke probe failed, 56 an asset is invalid, 57 over --max-artifact-bytes.
            """)

    @Option(help: "The project folder holding patch.json and .patch/baseline.json.")
    var project: String = "."

    @Option(help: "The baseline of the build on devices (default: <project>/.patch/baseline.json), e.g. one saved with a release.")
    var baseline: String?

    @Option(help: "The platform whose app build the module patches, one the baseline records (\(AppPlatform.list(AppPlatform.allCases))); default: the app's first (iOS when it ships for iOS).")
    var platform: AppPlatform?

    @Option(help: "With --export: the directory of the Swift sources to index.")
    var sources: String?

    @Option(name: .customLong("export"), help: "Build this declaration id instead of the detected changes (repeatable), e.g. 'Pricing.discount(for:promo:)'.")
    var exports: [String] = []

    @Option(name: [.short, .customLong("output")], help: "Output directory (default: <project>/.patch/build).")
    var output: String?

    @Option(help: "Swift toolchain to use (its root, usr or usr/bin); default: $SWIFT_TOOLCHAIN, then swiftc on PATH.")
    var toolchain: String?

    @Option(name: .customLong("min-coverage"), help: "Fail (exit 36) when less than N percent of the changes can be patched.")
    var minCoverage: Double?

    @Flag(name: .customLong("allow-native-changes"), help: "Succeed even when some changes stay native (they ship with the next app release).")
    var allowNativeChanges = false

    @Flag(name: .customLong("skip-probes"), help: "Do not run the module's smoke probes.")
    var skipProbes = false

    @Option(name: .customLong("max-artifact-bytes"), help: "Fail (exit 57, nothing written) when the artifact to release is larger than N bytes.")
    var maxArtifactBytes: Int?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if !exports.isEmpty, sources == nil { throw ValidationError("--export needs --sources DIR") }
        if exports.isEmpty, sources != nil { throw ValidationError("--sources goes with --export; without it, build reads the project's patch.json") }
        if !exports.isEmpty, baseline != nil { throw ValidationError("--baseline is for change detection; --export builds the named declarations without one") }
        if !exports.isEmpty, platform != nil { throw ValidationError("--platform is for change detection; --export builds the named declarations as an iOS build compiles them") }
        if let minCoverage, !(0...100).contains(minCoverage) { throw ValidationError("--min-coverage is a percentage from 0 to 100") }
        if let maxArtifactBytes, maxArtifactBytes <= 0 { throw ValidationError("--max-artifact-bytes is a positive number of bytes") }
        if !exports.isEmpty, maxArtifactBytes != nil { throw ValidationError("--max-artifact-bytes goes with change detection, not --export") }
    }

    /// The `--json` result; also the failure envelope's `result` for exits 35 and 36.
    struct Report: Encodable, Sendable {
        struct Export: Encodable, Sendable {
            var declarationID: String
            var symbol: String
            var scalarSymbol: String?
        }
        var output: String
        var baselineFingerprint: String?
        /// The platform whose build the module patches, and every platform the app ships for
        /// (change detection only).
        var platform: AppPlatform?
        var platforms: [AppPlatform]?
        var moduleBytes: Int?
        var sha256: String?
        var exports: [Export]
        /// The view bodies the module renders (`patch_view_manifest` entries, sdk-contract §5.3).
        struct View: Encodable, Sendable {
            var declarationID: String
            var type: String
            var export: String
            var dispatch: String?
        }
        var views: [View] = []
        var changes: [DeclarationChange]?
        var patched: Int
        var nativeOnly: Int
        var coverage: Double?
        var unpatchable: [GuestUnpatchable]
        var probes: [ProbeResult]
        /// Recorded source roots a commit moved or removed (build reports their code as removed).
        var missingSourceRoots: [ProjectSources.MissingSourceRoot] = []
        /// Folders the Xcode project gives a target that patch.json does not record (read all the same).
        var addedSourceRoots: [ProjectSources.AddedSourceRoot] = []
        /// The assets that ship in the artifact's resource overlay, and those that need an app release.
        var assets: [AssetChangeSet.Shipped] = []
        var unshippableAssets: [AssetIssue] = []
        /// Broken assets the baseline already had broken (not shipped, not blocking).
        var unchangedInvalidAssets: [AssetIssue] = []
        /// The POVR artifact to release when assets ship (docs/assets.md).
        var artifact: OverlayArtifact?
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("build") {
            if let sources { return try buildExplicit(sources: sources, console: console) }
            return try buildChanges(console: console)
        }
    }

    /// The toolchain, with the Swift SDK and wasm-opt choice of patch.json's `build` settings.
    private func discoverToolchain(_ settings: ProjectConfig.BuildSettings) throws(GuestBuildError) -> Toolchain {
        do {
            return try Toolchain.discover(explicitPath: toolchain, settings: settings)
        } catch {
            throw .toolchain(error)
        }
    }

    /// The default mode: change detection, the module, the report and the gates (exit 34-36).
    private func buildChanges(console: Console) throws -> Report {
        let outputDirectory = output ?? Preparer.join(project, ProjectBuilder.defaultOutputDirectory)
        console.progress("comparing \(project) with its baseline…")
        // ProjectBuilder asks for the toolchain only when there is something to compile, right before it does.
        let build = try ProjectBuilder.build(root: project, baselinePath: baseline, platform: platform, outputDirectory: outputDirectory,
                                             maxArtifactBytes: maxArtifactBytes) { settings throws(GuestBuildError) in
            console.progress("compiling the guest module…")
            return try discoverToolchain(settings)
        }
        for missing in build.missingSourceRoots { console.line("warning: \(missing)") }
        for added in build.addedSourceRoots { console.line("note: \(added)") }
        let assets = build.assets
        guard !build.changes.isEmpty || !assets.shipped.isEmpty || !assets.unshippable.isEmpty else {
            throw CommandFailure(kind: "no_changes", message: "no declaration differs from the baseline (fingerprint \(build.baselineFingerprint)); nothing to build",
                                 exitStatus: .noChanges, hint: "edit a declaration prepare routed, then build again (the baseline is what the app shipped)")
        }
        for change in build.changes {
            let reason = change.reason.map { " (\($0))" } ?? ""
            let detail = (change.detail.map { ": \($0)" } ?? "") + (change.problemLocation.map { " (at \($0))" } ?? "")
            console.line("\(change.status.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0))\(change.location)  \(change.id)  [\(change.change.rawValue)]\(reason)\(detail)")
        }
        if build.platforms.count > 1 {
            console.line("platform: \(build.platform.rawValue) (the app ships for \(AppPlatform.list(build.platforms)); `--platform P` builds the module of another)")
        }
        let probes = try checkProbes(build.module, outputDirectory: outputDirectory, console: console)
        let manifest = build.module?.manifest
        if let manifest {
            for view in manifest.views ?? [] {
                console.line("view          \(view.type) → \(view.export)\(view.dispatch.map { " + \($0)" } ?? "")")
            }
            console.line("module.wasm: \(manifest.module.size) bytes, sha256 \(manifest.module.sha256) (in \(outputDirectory))")
        } else if !build.changes.isEmpty {
            console.line("no module written: no change can be patched")
        }
        for asset in assets.shipped {
            console.line("asset         \(asset.file)  \(asset.id)  [\(asset.change.rawValue)] \(Self.oneLine(asset.summary))  (\(asset.bytes) B)")
        }
        for issue in assets.unshippable { console.line("asset-native  \(issue)") }
        for issue in assets.unchangedInvalid { console.line("warning: asset invalid since the baseline, not shipped: \(issue)") }
        if let artifact = build.overlayArtifact {
            console.line("\(artifact.file): \(artifact.size) bytes (overlay \(artifact.overlayBytes) B + \(artifact.inner) \(artifact.innerBytes) B), sha256 \(artifact.sha256): release this artifact")
        }
        console.line("coverage: \(build.coverage)% (\(build.patched.count) patched, \(build.nativeOnly.count) native-only); baseline \(build.baselineFingerprint)")
        let report = Report(
            output: outputDirectory, baselineFingerprint: build.baselineFingerprint, platform: build.platform, platforms: build.platforms,
            moduleBytes: manifest?.module.size, sha256: manifest?.module.sha256,
            exports: manifest.map(Self.exports) ?? [],
            views: (manifest?.views ?? []).map { .init(declarationID: $0.declarationID, type: $0.type, export: $0.export, dispatch: $0.dispatch) },
            changes: build.changes, patched: build.patched.count, nativeOnly: build.nativeOnly.count,
            coverage: build.coverage, unpatchable: manifest?.unpatchable ?? [], probes: probes, missingSourceRoots: build.missingSourceRoots,
            addedSourceRoots: build.addedSourceRoots, assets: assets.shipped, unshippableAssets: assets.unshippable,
            unchangedInvalidAssets: assets.unchangedInvalid, artifact: build.overlayArtifact)
        if !build.nativeOnly.isEmpty, !allowNativeChanges {
            throw CommandFailure(
                kind: "native_changes",
                message: "\(build.nativeOnly.count) change(s) cannot be patched and need an app release",
                exitStatus: .nativeChangesPresent, hint: Self.nativeChangesHint(build.nativeOnly),
                detail: build.nativeOnly.map { "  \($0.location): \($0.id) (\($0.reason ?? ""))" }.joined(separator: "\n"),
                result: report)
        }
        if let minCoverage, build.coverage < minCoverage {
            throw CommandFailure(kind: "coverage_below_minimum", message: "patch coverage \(build.coverage)% is below --min-coverage \(minCoverage)%",
                                 exitStatus: .coverageBelowMinimum, hint: "the report lists each native-only change and its reason", result: report)
        }
        return report
    }

    /// A change the guest compiler rejected (`compile_error`, or `missing_dependency`: a name nothing
    /// declares) is code to fix, not a change to ship with the app: the hint offers
    /// --allow-native-changes only for the others.
    static func nativeChangesHint(_ nativeOnly: [DeclarationChange]) -> String {
        let rejected = nativeOnly.filter { [GuestUnpatchable.Reason.compileError.rawValue, GuestUnpatchable.Reason.missingDependency.rawValue].contains($0.reason) }
        let shipLater = "ship them with the next app release and pass --allow-native-changes, or revert them"
        guard !rejected.isEmpty else { return shipLater }
        let fix = "fix what the guest compiler reported for \(rejected.map(\.id).joined(separator: ", ")) and run build again"
        return rejected.count == nativeOnly.count ? fix : "\(fix); the other changes: \(shipLater)"
    }

    /// A string override as one short line: newlines escaped, at most 60 characters.
    static func oneLine(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\n", with: "\\n")
        return escaped.count > 60 ? escaped.prefix(59) + "…" : escaped
    }

    /// `--export`: the named declarations, no baseline.
    private func buildExplicit(sources: String, console: Console) throws -> Report {
        let outputDirectory = output ?? Preparer.join(project, ProjectBuilder.defaultOutputDirectory)
        console.progress("building \(exports.count) declaration(s)…")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: exports, outputDirectory: outputDirectory, toolchain: try discoverToolchain(.init())))
        let manifest = result.manifest
        for export in manifest.exports {
            console.line("patched  \(export.declarationID)  → \(export.symbol)\(export.scalar.map { " (+ \($0.symbol) \($0.wasmSignature))" } ?? "")")
        }
        for item in manifest.unpatchable {
            console.line("native   \(item)")
        }
        let probes = try checkProbes(result, outputDirectory: outputDirectory, console: console)
        console.line("module.wasm: \(manifest.module.size) bytes, sha256 \(manifest.module.sha256) (in \(outputDirectory))")
        return Report(
            output: outputDirectory, baselineFingerprint: nil, moduleBytes: manifest.module.size, sha256: manifest.module.sha256,
            exports: Self.exports(manifest), changes: nil, patched: manifest.exports.count, nativeOnly: manifest.unpatchable.count,
            coverage: nil, unpatchable: manifest.unpatchable, probes: probes)
    }

    private static func exports(_ manifest: GuestManifest) -> [Report.Export] {
        manifest.exports.map { .init(declarationID: $0.declarationID, symbol: $0.symbol, scalarSymbol: $0.scalar?.symbol) }
    }

    /// Runs the manifest's probes against the module as `patchcli run --smoke` does; a failure fails
    /// the build (exit 27).
    private func checkProbes(_ result: GuestBuildResult?, outputDirectory: String, console: Console) throws -> [ProbeResult] {
        guard let result, !skipProbes, !result.manifest.probes.isEmpty else { return [] }
        let modulePath = Preparer.join(outputDirectory, result.manifest.module.file)
        let manifestPath = Run.manifestPath(for: modulePath)
        let probes = try RunManifest.parse(try FileAccess.read(manifestPath), source: manifestPath).probes
        let artifact = try ArtifactLoader.load(try FileAccess.read(modulePath), expectedSHA256: result.manifest.sha256, hashSource: manifestPath)
        console.progress("running \(probes.count) probe(s) on the module…")
        let results = try SmokeRunner.run(probes, activating: artifact, options: .reproducible())
        for probe in results { console.line("probe \(probe.passed ? "PASS" : "FAIL")  \(probe.name)  \(probe.detail)") }
        try SmokeRunner.requirePassed(results)
        return results
    }
}

extension AppPlatform: ExpressibleByArgument {}
