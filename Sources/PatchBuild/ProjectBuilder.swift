import Foundation
import PatchManifest

/// What `patchcli build` found and built in a prepared project.
public struct ProjectBuildReport: Sendable {
    /// The native build the module is for (`BuildFingerprint` of `.patch/baseline.json` and `platform`).
    public var baselineFingerprint: String
    /// The platform whose build the module patches, and all the app ships for (the default first).
    public var platform: AppPlatform = .iOS
    public var platforms: [AppPlatform] = [.iOS]
    /// Every declaration that differs from the baseline, sorted by id, with its final status.
    public var changes: [DeclarationChange]
    /// The module, when at least one change could be patched.
    public var module: GuestBuildResult?
    /// Source roots recorded in patch.json that no longer exist (their code is reported removed).
    public var missingSourceRoots: [ProjectSources.MissingSourceRoot] = []
    /// Folders the Xcode project gives a target that patch.json does not record (read all the same).
    public var addedSourceRoots: [ProjectSources.AddedSourceRoot] = []
    /// The app's assets that differ from the baseline (docs/assets.md).
    public var assets: AssetChangeSet = .none
    /// The `POVR` artifact (resource overlay + module) when assets ship: what to release.
    public var overlayArtifact: OverlayArtifact?

    public var patched: [DeclarationChange] { changes.filter { $0.status == .patched } }
    public var nativeOnly: [DeclarationChange] { changes.filter { $0.status == .nativeOnly } }

    /// Percent of the behaviour-changing declarations (patched or native-only) the module delivers;
    /// 100 when nothing changes behaviour.
    public var coverage: Double {
        let total = patched.count + nativeOnly.count
        guard total > 0 else { return 100 }
        return (Double(patched.count) * 1000 / Double(total)).rounded() / 10
    }
}

/// `patchcli build` in a project `init`/`prepare` set up: change detection against the baseline,
/// then the guest pipeline for the changed functions the shipped binary routes.
public enum ProjectBuilder {
    /// Where the module goes unless the caller says otherwise, relative to the project root.
    public static let defaultOutputDirectory = ".patch/build"

    /// - Parameter toolchain: called with patch.json's `build` settings only when there is something
    ///   to compile, so a project without patchable changes needs no toolchain (nor its Swift SDK).
    /// - Parameter platform: the platform whose build the module patches (`build --platform`); default
    ///   the baseline's first.
    /// - Parameter maxArtifactBytes: the largest artifact (module, or overlay artifact) to write.
    public static func build(root: String, baselinePath: String? = nil, platform: AppPlatform? = nil, outputDirectory: String, templatesDirectory: String? = nil,
                             maxArtifactBytes: Int? = nil,
                             toolchain: (ProjectConfig.BuildSettings) throws(GuestBuildError) -> Toolchain) throws(ProjectBuildError) -> ProjectBuildReport {
        let changeSet: ChangeSet
        let assets: AssetChangeSet
        let config: ProjectConfig
        do {
            changeSet = try ChangeDetector.detect(root: root, baselinePath: baselinePath, platform: platform)
        } catch {
            throw .changeDetection(error)
        }
        do {
            config = try ProjectSources.loadConfig(root: root)
        } catch {
            throw .changeDetection(.project(error))
        }
        do {
            // A broken asset stops the build before anything is written or removed.
            assets = try AssetChanges.detect(root: root, config: config, baseline: changeSet.baselineAssets)
        } catch {
            throw .assets(error)
        }
        var report = ProjectBuildReport(baselineFingerprint: changeSet.baselineFingerprint, platform: changeSet.platform, platforms: changeSet.platforms,
                                        changes: changeSet.changes, module: nil,
                                        missingSourceRoots: changeSet.missingSourceRoots, addedSourceRoots: changeSet.addedSourceRoots, assets: assets)
        // A module from an earlier build must not outlive the sources it was built from: a release
        // step after this build would ship it.
        try removeEarlierOutputs(in: outputDirectory)
        try buildModule(changeSet, into: &report, root: root, outputDirectory: outputDirectory, templatesDirectory: templatesDirectory, toolchain: toolchain)
        if !assets.isEmpty {
            report.overlayArtifact = try OverlayArtifact.write(assets: assets, module: report.module, outputDirectory: outputDirectory,
                                                               baselineFingerprint: changeSet.baselineFingerprint, maxBytes: maxArtifactBytes)
        } else if let module = report.module, let maxArtifactBytes, module.manifest.module.size > maxArtifactBytes {
            try removeEarlierOutputs(in: outputDirectory)
            throw .artifactTooLarge(ArtifactSizeReport(bytes: module.manifest.module.size, limit: maxArtifactBytes, moduleBytes: module.manifest.module.size, assets: []))
        }
        return report
    }

    private static func buildModule(_ changeSet: ChangeSet, into report: inout ProjectBuildReport, root: String, outputDirectory: String, templatesDirectory: String?,
                                    toolchain: (ProjectConfig.BuildSettings) throws(GuestBuildError) -> Toolchain) throws(ProjectBuildError) {
        guard !changeSet.candidates.isEmpty || !changeSet.viewCandidates.isEmpty else { return }
        do {
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: root, sourceFolders: changeSet.sourceRoots, moduleNames: changeSet.moduleNames, exports: changeSet.candidates.map(\.functionKey),
                views: changeSet.viewCandidates,
                outputDirectory: outputDirectory, toolchain: try toolchain(changeSet.buildSettings), templatesDirectory: templatesDirectory,
                baselineFingerprint: changeSet.baselineFingerprint, platform: changeSet.platform))
            report.module = result
            report.changes = changeSet.applying(unpatchable: result.manifest.unpatchable)
        } catch let GuestBuildError.nothingToPatch(unpatchable) {
            report.changes = changeSet.applying(unpatchable: unpatchable)
        } catch {
            throw .guest(error)
        }
    }

    static func removeEarlierOutputs(in directory: String) throws(ProjectBuildError) {
        for name in GuestModuleBuilder.outputFiles + OverlayArtifact.outputFiles {
            let path = Preparer.join(directory, name)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw .guest(.outputUnwritable(path: path, reason: "\(error)"))
            }
        }
    }
}

public enum ProjectBuildError: Error, CustomStringConvertible {
    case changeDetection(ChangeDetectionError)
    case guest(GuestBuildError)
    case assets(AssetBuildError)
    case artifactTooLarge(ArtifactSizeReport)

    public var description: String {
        switch self {
        case let .changeDetection(error): return error.description
        case let .guest(error): return error.description
        case let .assets(error): return error.description
        case let .artifactTooLarge(size): return size.description
        }
    }
}
