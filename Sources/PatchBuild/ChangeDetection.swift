import Foundation
import PatchManifest

/// One declaration that differs from the baseline `prepare` recorded, and what `build` makes of it.
public struct DeclarationChange: Sendable, Codable, Equatable {
    public enum Change: String, Sendable, Codable {
        case modified, added, removed
        /// The id changed only in its parameter types, or its recorded signature changed (result or
        /// property type, effects, `static`/`mutating`, parameter names): the native call sites and
        /// the shipped thunk use the old one.
        case signatureChanged = "signature_changed"
    }

    public enum Status: String, Sendable, Codable {
        /// The module replaces it on devices.
        case patched
        /// Devices keep running the shipped code; the reason says why.
        case nativeOnly = "native_only"
        /// Added or removed code nothing native calls by itself: a native caller that starts or stops
        /// using it is a change of its own (reported separately); patched code that uses an added
        /// declaration gets it compiled into the module.
        case informational
    }

    /// Why a change stays native. Besides these, the guest tier's reasons (`GuestUnpatchable.Reason`).
    public enum NativeReason {
        /// Stored properties or enum cases changed: the native binary owns the memory layout.
        public static let storedLayoutChanged = "stored_layout_changed"
        /// Parameter types or the signature changed: the shipped thunk passes and decodes the old ones.
        public static let signatureChanged = "signature_changed"
        /// The shipped binary has no thunk routing calls to it (not `// @patchable`, or not a kind
        /// of declaration `prepare` routes).
        public static let notRouted = "not_routed"
        /// A `ToolbarContent` body: the SDK routes bodies to a view (`PatchedBodyHost`), which a
        /// toolbar cannot hold, so no thunk can route it (a limit of sdk-contract §5.1).
        public static let toolbarContentNotRoutable = "toolbar_content_not_routable"
        /// With status `informational`: only other platforms' builds compile it (`#if os(macOS)`), so
        /// the module of this platform has nothing to deliver; `build --platform P` ships it there.
        public static let otherPlatform = "other_platform"
    }

    /// The baseline id, `Target:Type.name(label:Type)`.
    public var id: String
    public var kind: Baseline.Declaration.Kind
    public var change: Change
    public var status: Status
    /// A `NativeReason` or `GuestUnpatchable.Reason` raw value; nil when patched.
    public var reason: String?
    public var detail: String?
    /// Where it is now (where it was, for a removed declaration: line 0).
    public var location: GuestSourceLocation
    /// Where the guest compiler found the problem that keeps it native, when elsewhere than the
    /// declaration (a helper it uses, an API call inside it); `location` stays the changed declaration.
    public var problemLocation: GuestSourceLocation?
    /// In an app that ships for several platforms (`Baseline.platforms`): those whose build compiles
    /// this code (its `#if` branches), so a build for each of them can ship it; nil for an app of one
    /// platform and for removed code.
    public var platforms: [AppPlatform]?

    public init(id: String, kind: Baseline.Declaration.Kind, change: Change, status: Status, reason: String?, detail: String?,
                location: GuestSourceLocation) {
        self.id = id
        self.kind = kind
        self.change = change
        self.status = status
        self.reason = reason
        self.detail = detail
        self.location = location
    }
}

/// A changed function that the shipped binary routes through a thunk: a candidate for the module.
public struct PatchCandidate: Sendable, Equatable {
    /// The baseline id (the key of its `DeclarationChange`).
    public var declarationID: String
    /// `Type.name(label:)`: what the guest pipeline exports (`GuestExportName`).
    public var functionKey: String
}

/// What changed since the baseline, before any guest code is built.
public struct ChangeSet: Sendable {
    /// `BuildFingerprint` of `.patch/baseline.json` for `platform`: the native build the module is for.
    public var baselineFingerprint: String
    /// The platform this build is for, one of `platforms`.
    public var platform: AppPlatform = .iOS
    /// The platforms the shipped app is built for (`Baseline.platforms`), the default first.
    public var platforms: [AppPlatform] = [.iOS]
    /// Sorted by id. Candidates appear as `.patched` until the guest build says otherwise.
    public var changes: [DeclarationChange]
    public var candidates: [PatchCandidate]
    /// Changed view bodies the shipped binary routes: lowered into the module when they can be.
    /// Includes the unchanged bodies that carry a changed helper (`helperBodies`).
    public var viewCandidates: [GuestViewRequest] = []
    /// The body each changed view helper ships with, helper id → body id (`ViewHelperShipping`):
    /// the helper shares the body's outcome.
    public var helperBodies: [String: String] = [:]
    /// The source roots of every target and package that still exist (relative to the project root),
    /// the candidates' targets first: what the guest pipeline indexes.
    public var sourceRoots: [String]
    /// The module name of every target (`PrepareTarget.moduleName`): the guest, one module, reads a
    /// type written `Backend.Category` as the `Category` it holds.
    public var moduleNames: [String] = []
    /// Source roots recorded in patch.json that no longer exist: their declarations are reported
    /// removed, and the user is told to refresh the recorded roots.
    public var missingSourceRoots: [ProjectSources.MissingSourceRoot]
    /// Folders the Xcode project gives a target that patch.json does not record: read all the same.
    public var addedSourceRoots: [ProjectSources.AddedSourceRoot] = []
    /// patch.json's `build` settings (Swift SDK, wasm-opt) for the toolchain that compiles them.
    public var buildSettings: ProjectConfig.BuildSettings
    /// The assets the shipped build holds (`AssetChanges` compares the project's against them).
    public var baselineAssets: [Baseline.Asset] = []

    /// Folds in what the guest compiler could not build: those candidates become native-only with
    /// its reason and location.
    public func applying(unpatchable: [GuestUnpatchable]) -> [DeclarationChange] {
        var byKey: [String: GuestUnpatchable] = [:]
        for item in unpatchable { byKey[item.declarationID] = byKey[item.declarationID] ?? item }
        // View bodies are reported under their baseline id.
        let idsByKey = Dictionary(candidates.map { ($0.functionKey, $0.declarationID) } + viewCandidates.map { ($0.declarationID, $0.declarationID) },
                                  uniquingKeysWith: { first, _ in first })
        var changes = self.changes
        for (key, item) in byKey {
            guard let id = idsByKey[key] else { continue }
            // A body that does not lower keeps the helpers it carries native too, with its reason.
            let helpers = Set(helperBodies.filter { $0.value == id }.keys)
            for index in changes.indices where changes[index].id == id || helpers.contains(changes[index].id) {
                let isHelper = changes[index].id != id
                // A view's state change keeps its named properties (`ViewStateShipping`).
                let state = changes[index].kind == .storedLayout
                    ? changes[index].detail?.components(separatedBy: ViewStateShipping.shipsWithBody).first.map { $0 + "; " } : nil
                changes[index].status = .nativeOnly
                changes[index].reason = item.reason.rawValue
                changes[index].detail = isHelper ? (state ?? "") + "it ships inside `\(id.split(separator: ":", maxSplits: 1).last ?? "")`, which does not lower: " + item.detail
                    : item.detail
                // The guest pipeline indexes the project root: its locations are the report's. Where the
                // guest compiler found the problem is reported beside the changed declaration.
                if let problem = item.location, problem != changes[index].location { changes[index].problemLocation = problem }
            }
        }
        return changes
    }
}

/// Why change detection could not run.
public enum ChangeDetectionError: Error, CustomStringConvertible {
    case project(ProjectError)
    case baselineMissing(path: String)
    case baselineInvalid(path: String, reason: String)
    /// `build --platform P` for a platform the baseline does not record.
    case platformNotShipped(AppPlatform, shipped: [AppPlatform])

    public var description: String {
        switch self {
        case let .project(error): return error.description
        case let .baselineMissing(path):
            return "\(path): no baseline; `patchcli prepare` records it for the build you ship, and `build` compares against it"
        case let .baselineInvalid(path, reason): return "\(path): \(reason)"
        case let .platformNotShipped(platform, shipped):
            return "the baseline records builds for \(AppPlatform.list(shipped)), not \(platform.rawValue): no build of the app on devices runs \(platform.displayName) code; add the platform to the app target and run `patchcli prepare` before shipping it"
        }
    }
}

/// Compares the project's sources with `.patch/baseline.json`, declaration by declaration.
public enum ChangeDetector {
    /// - Parameters:
    ///   - baselinePath: the baseline of the build on devices; default `.patch/baseline.json` of the
    ///     project (another file, e.g. one saved with a release, when `prepare` has run since).
    ///   - platform: the platform whose build the module patches, one of the baseline's `platforms`;
    ///     default its first.
    public static func detect(root: String, baselinePath: String? = nil, platform: AppPlatform? = nil) throws(ChangeDetectionError) -> ChangeSet {
        let baselinePath = baselinePath ?? Preparer.join(root, PrepareState.baselinePath)
        let config: ProjectConfig
        let targets: [PrepareTarget]
        let missingRoots: [ProjectSources.MissingSourceRoot]
        let baselineBytes: [UInt8]
        do {
            config = try ProjectSources.loadConfig(root: root)
            // A commit may move or remove a recorded folder: what is gone reads as removed code.
            (targets, missingRoots) = try ProjectSources.existingTargets(config: config, root: root)
            guard let bytes = try ProjectSources.readIfPresent(baselinePath) else { throw ChangeDetectionError.baselineMissing(path: baselinePath) }
            baselineBytes = bytes
        } catch let error as ChangeDetectionError {
            throw error
        } catch let error as ProjectError {
            throw .project(error)
        } catch {
            throw .baselineInvalid(path: baselinePath, reason: "\(error)")
        }
        let baseline: Baseline
        do {
            baseline = try Baseline(json: try JSONValue.parse(baselineBytes))
        } catch {
            throw .baselineInvalid(path: baselinePath, reason: "\(error)")
        }
        let platform = platform ?? baseline.platforms[0]
        guard baseline.platforms.contains(platform) else { throw .platformNotShipped(platform, shipped: baseline.platforms) }
        // The plan of a `prepare` run now: its baseline is the current state of every declaration.
        let current = Preparer.plan(targets: targets, appTarget: config.appTarget, routing: RoutingSelection(config: config),
                                    existingFile: { _ in nil })
        var changes = compare(baseline: baseline, current: current, shippedExports: shippedExports(targets))
        var helperBodies = ViewHelperShipping.apply(to: &changes, baseline: baseline, current: current, targets: targets)
        // A view's state change ships inside its body's patch as a helper's does.
        let state = ViewStateShipping.carriers(of: changes, baseline: baseline, current: current)
        helperBodies.merge(state.bodies) { helper, _ in helper }
        demoteMembersOfChangedLayouts(&changes, current: current)
        if baseline.platforms.count > 1 {
            assignPlatforms(&changes, building: platform, platforms: baseline.platforms, root: root)
            // A helper or state change compiled only elsewhere no longer makes its body a carrier here.
            helperBodies = helperBodies.filter { helper, _ in changes.first { $0.id == helper }?.status != .informational }
        }
        changes.sort { $0.id < $1.id }
        let candidates = changes.filter { $0.status == .patched }.compactMap { change in
            current.functions.first { $0.declarationID == change.id }.map { PatchCandidate(declarationID: change.id, functionKey: $0.key) }
        }
        let viewCandidates = viewCandidates(in: changes, baseline: baseline, helperBodies: helperBodies, reinitializedState: state.reinitialized)
        let viewTargets = Set(viewCandidates.compactMap { PatchNames.ViewIdentity(baselineID: $0.declarationID)?.target })
        let candidateTargets = Set(current.functions.filter { function in candidates.contains { $0.declarationID == function.declarationID } }.map(\.target))
            .union(viewTargets)
        let missing = Set(missingRoots.map(\.root))
        var roots: [String] = []
        // The targets as read now: an Xcode target's roots include folders its project added since init.
        for target in targets.filter({ candidateTargets.contains($0.name) }) + targets {
            for sourceRoot in target.sourceRoots where !missing.contains(sourceRoot) && !roots.contains(sourceRoot) { roots.append(sourceRoot) }
        }
        return ChangeSet(baselineFingerprint: BuildFingerprint.compute(canonicalBaseline: baselineBytes, platform: platform),
                         platform: platform, platforms: baseline.platforms, changes: changes,
                         candidates: candidates, viewCandidates: viewCandidates, helperBodies: helperBodies, sourceRoots: roots,
                         moduleNames: targets.map(\.moduleName), missingSourceRoots: missingRoots, addedSourceRoots: current.addedSourceRoots, buildSettings: config.build ?? .init(),
                         baselineAssets: baseline.assets)
    }

    /// Records the platforms whose build compiles each change (`DeclarationChange.platforms`); a
    /// candidate that `platform`'s build does not compile becomes informational (`other_platform`):
    /// its code is not in that binary, so the module has nothing to replace there, and the detail
    /// says which build ships it.
    static func assignPlatforms(_ changes: inout [DeclarationChange], building platform: AppPlatform, platforms: [AppPlatform], root: String) {
        let compiling = ProjectPlatforms.compilingPlatforms(of: changes, platforms: platforms, root: root)
        for index in changes.indices {
            guard let those = compiling[index] else { continue }
            changes[index].platforms = those
            guard changes[index].status == .patched, !those.contains(platform) else { continue }
            changes[index].status = .informational
            changes[index].reason = DeclarationChange.NativeReason.otherPlatform
            let builds = those.map { "`patchcli build --platform \($0.rawValue)`" }.joined(separator: " or ")
            changes[index].detail = those.isEmpty
                ? "no build of the app compiles it (its `#if` branches are inactive on \(AppPlatform.list(platforms))): nothing to ship"
                : "only the \(those.map(\.displayName).joined(separator: " and ")) build compiles it (its `#if` branches), not the \(platform.displayName) one this module patches: \(builds) ships it there"
        }
    }

    /// A changed instance member whose type's stored layout changed natively stays native: its
    /// shipped thunk sends `self` (and reads it back) with the stored properties the shipped build
    /// declares, while the module would decode the new ones, so on a device the call would fail to
    /// decode and fall back to the shipped code. A layout change that ships (a view's guest-held
    /// state, `ViewStateShipping`) keeps its members patched: the guest reads the state it adds
    /// from its default.
    static func demoteMembersOfChangedLayouts(_ changes: inout [DeclarationChange], current: PreparePlan) {
        // By the type's id without the `#2` of a declaration under another `#if` clause.
        let changedLayouts = Dictionary(changes.filter { $0.kind == .storedLayout && $0.status == .nativeOnly }.map { (String($0.id.prefix { $0 != "#" }), $0) },
                                        uniquingKeysWith: { first, _ in first })
        guard !changedLayouts.isEmpty else { return }
        let receiverSenders = Set(current.functions.filter(\.sendsReceiver).map(\.declarationID))
        for index in changes.indices where changes[index].status == .patched && receiverSenders.contains(changes[index].id) {
            guard let member = ViewHelperShipping.MemberName(baselineID: changes[index].id), !member.typePath.isEmpty else { continue }
            let owner = member.typePath.joined(separator: ".")
            guard let layout = changedLayouts["\(member.target):\(owner)"] else { continue }
            changes[index].status = .nativeOnly
            changes[index].reason = DeclarationChange.NativeReason.storedLayoutChanged
            changes[index].detail = "its thunk sends `self` as the shipped build lays out `\(owner)`, whose stored properties changed (\(layout.location.file):\(layout.location.line)), so the module could not read it; this ships with an app release"
        }
    }

    /// The changed view bodies to lower, and those carrying a changed helper (`helperBodies`' values),
    /// named as the shipped binary's thunks name them (from the baseline alone:
    /// `PatchNames.viewTypeNames` of its views). `reinitializedState`: body id → the `@State` fields
    /// whose default changed (`ViewStateShipping`).
    static func viewCandidates(in changes: [DeclarationChange], baseline: Baseline, helperBodies: [String: String] = [:],
                               reinitializedState: [String: [String]] = [:]) -> [GuestViewRequest] {
        let shippedViewNames = PatchNames.viewTypeNames(PatchNames.viewClaims(in: baseline))
        let changedBodies = changes.filter { $0.status == .patched && $0.kind == .viewBody }.map(\.id)
        let carriers = Set(helperBodies.values).subtracting(changes.map(\.id)).sorted()
        return (changedBodies + carriers).compactMap { id in
            guard let view = PatchNames.ViewIdentity(baselineID: id), let typeName = shippedViewNames.typeName(of: view) else { return nil }
            let shipped = baseline.declarations.first { $0.id == id }
            return GuestViewRequest(declarationID: id, typeName: typeName, path: view.path, shippedTokens: shipped?.tokens ?? [],
                                    reinitializedState: reinitializedState[id] ?? [])
        }
    }

    /// Every export name a generated thunk of the shipped build calls: the routing files and the
    /// generated sections `prepare` wrote are part of the sources it was built from.
    static func shippedExports(_ targets: [PrepareTarget]) -> Set<String> {
        var exports = Set<String>()
        for target in targets {
            for file in target.files {
                let text = String(decoding: file.bytes, as: UTF8.self)
                guard text.contains("Patch.shared.hasFunction(") else { continue }
                for line in text.split(separator: "\n") {
                    guard let call = line.range(of: "Patch.shared.hasFunction(\"") else { continue }
                    let rest = line[call.upperBound...]
                    if let end = rest.firstIndex(of: "\"") { exports.insert(String(rest[..<end])) }
                }
            }
        }
        return exports
    }

    /// Classifies every difference between the baseline and the current declarations.
    static func compare(baseline: Baseline, current: PreparePlan, shippedExports: Set<String>) -> [DeclarationChange] {
        let old = Dictionary(baseline.declarations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(current.baseline.declarations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func location(_ declaration: Baseline.Declaration) -> GuestSourceLocation {
            GuestSourceLocation(file: declaration.file, line: current.declarationLines[declaration.id] ?? 0)
        }
        // The names the shipped binary's view thunks pass to the SDK: those of the baseline's views.
        let shippedViewNames = PatchNames.viewTypeNames(PatchNames.viewClaims(in: baseline))
        var changes: [DeclarationChange] = []
        var renamedFrom = Set<String>()
        // Stored layouts whose default values (or `let`/`var`) changed and nothing else behavioural.
        var initializedTypes: [Baseline.Declaration] = []
        for declaration in current.baseline.declarations {
            guard let previous = old[declaration.id] else {
                // Same name and argument labels, other parameter types: a signature change.
                let labels = labelsOnly(declaration.id)
                if let labels, let earlier = baseline.declarations.first(where: {
                    new[$0.id] == nil && $0.kind == declaration.kind && labelsOnly($0.id) == labels
                }) {
                    renamedFrom.insert(earlier.id)
                    changes.append(DeclarationChange(
                        id: declaration.id, kind: declaration.kind, change: .signatureChanged, status: .nativeOnly,
                        reason: DeclarationChange.NativeReason.signatureChanged,
                        detail: "was \(earlier.id); the shipped thunk and callers pass the old parameter types", location: location(declaration)))
                } else {
                    changes.append(DeclarationChange(
                        id: declaration.id, kind: declaration.kind, change: .added, status: .informational, reason: nil,
                        detail: "new code: reaches devices only inside patched functions that use it", location: location(declaration)))
                }
                continue
            }
            guard previous.contentHash != declaration.contentHash else { continue }
            switch judge(previous: previous, current: declaration) {
            case .unchanged:
                continue
            case let .informational(detail):
                changes.append(DeclarationChange(id: declaration.id, kind: declaration.kind, change: .modified, status: .informational,
                                                 reason: nil, detail: detail, location: location(declaration)))
            case let .signature(detail):
                changes.append(DeclarationChange(id: declaration.id, kind: declaration.kind, change: .signatureChanged, status: .nativeOnly,
                                                 reason: DeclarationChange.NativeReason.signatureChanged, detail: detail,
                                                 location: location(declaration)))
            case .initialization:
                // A view's re-initialised `@State` is the guest's: it ships with the body.
                if let viewName = ViewStateShipping.routedViewName(ofLayout: declaration, shippedViewNames: shippedViewNames) {
                    let state = ViewStateShipping.change(of: declaration, previous: previous, viewName: viewName, shipped: baseline,
                                                         current: current, location: location(declaration))
                    if state.status == .patched {
                        changes.append(state)
                        continue
                    }
                }
                initializedTypes.append(declaration)
            case .behaviour:
                changes.append(classifyModification(declaration, previous: previous, shipped: baseline, current: current, shippedExports: shippedExports,
                                                    shippedViewNames: shippedViewNames, location: location(declaration)))
            }
        }
        // After the loop, so that an initializer changed in its own right keeps that change.
        for layout in initializedTypes {
            changes += initializerChanges(of: layout, current: current, reported: Set(changes.map(\.id))) { initializer in
                classifyModification(initializer, shipped: baseline, current: current, shippedExports: shippedExports, shippedViewNames: shippedViewNames,
                                     location: location(initializer))
            }
        }
        for declaration in baseline.declarations where new[declaration.id] == nil && !renamedFrom.contains(declaration.id) {
            changes.append(DeclarationChange(
                id: declaration.id, kind: declaration.kind, change: .removed, status: .informational, reason: nil,
                detail: "removed from the sources; the shipped binary keeps it", location: GuestSourceLocation(file: declaration.file, line: 0)))
        }
        return changes.map { change in
            guard change.status != .informational, isPreviewCode(change.id, previewTypes: current.previewTypes) else { return change }
            var preview = change
            preview.status = .informational
            preview.reason = nil
            preview.detail = Preparer.previewCode + ", so there is nothing to ship"
            return preview
        }
    }

    /// Whether a baseline id is a `PreviewProvider` type's (its stored layout) or a member of one,
    /// or of a type nested in one.
    static func isPreviewCode(_ id: String, previewTypes: Set<String>) -> Bool {
        guard !previewTypes.isEmpty, let member = ViewHelperShipping.MemberName(baselineID: id) else { return false }
        let path = member.typePath + [member.name]
        return path.indices.contains { previewTypes.contains(member.target + ":" + path[...$0].joined(separator: ".")) }
    }

    /// What a change of a declaration's tokens amounts to, by its `Baseline.Behaviour` (docs/prepare.md
    /// "Behaviour"). A baseline written before behaviour was recorded has none: every change of the
    /// tokens then counts as behaviour, as it always did.
    enum Judgement: Equatable {
        /// Only the order of modifiers, a stored property's written type where its literal default
        /// gave the same one, or a part another entry reports (a stored property's observers are
        /// reported with the property).
        case unchanged
        /// Access control, isolation of synchronous code, `final` or attributes without runtime effect.
        case informational(String)
        /// The calling convention the shipped thunk and native callers were compiled against.
        case signature(String)
        /// A stored layout whose default values or `let`/`var` changed, not its memory layout.
        case initialization
        case behaviour
    }

    static func judge(previous: Baseline.Declaration, current: Baseline.Declaration) -> Judgement {
        guard let before = previous.behaviour, let after = current.behaviour else { return .behaviour }
        if before.hash == after.hash {
            guard before.inert != after.inert else { return .unchanged }
            return .informational(inertDetail(before: before.inert, after: after.inert, isLayout: current.kind == .storedLayout))
        }
        if let old = before.signature, let new = after.signature, old != new {
            return .signature("`\(old)` → `\(new)`: the shipped thunk and native callers use the old signature, so this needs an app release")
        }
        if let old = before.layout, let new = after.layout, old == new { return .initialization }
        return .behaviour
    }

    /// "access control only: `private` on `retries` added" (a stored layout's items are `name:item`).
    /// Called only when the items differ.
    private static func inertDetail(before: [String], after: [String], isLayout: Bool) -> String {
        func removingEach(_ items: [String], of others: [String]) -> [String] {
            var remaining = items
            for item in others { if let index = remaining.firstIndex(of: item) { remaining.remove(at: index) } }
            return remaining
        }
        let removed = removingEach(before, of: after)
        let added = removingEach(after, of: before)
        func split(_ item: String) -> (owner: String?, text: Substring) {
            guard isLayout, let colon = item.firstIndex(of: ":") else { return (nil, item[...]) }
            return (String(item[..<colon]), item[item.index(after: colon)...])
        }
        func describe(_ items: [String]) -> String {
            items.map { item in
                let (owner, text) = split(item)
                return "`\(text)`" + (owner.map { " on `\($0)`" } ?? "")
            }.joined(separator: ", ")
        }
        var categories: [String] = []
        for item in removed + added {
            let category = BehaviourDigest.category(ofInert: split(item).text)
            if !categories.contains(category) { categories.append(category) }
        }
        let what = removed.count == 1 && added.count == 1 ? describe(removed) + " → " + describe(added)
            : [removed.isEmpty ? nil : describe(removed) + " removed", added.isEmpty ? nil : describe(added) + " added"]
                .compactMap { $0 }.joined(separator: " and ")
        return "\(categories.joined(separator: " and ")) only: \(what); no behaviour changes, devices keep the shipped code"
    }

    /// A stored property's default value (or `let`/`var`) is set by the type's initializers: they
    /// are what changed. Each explicit initializer of the type not already reported is judged as a
    /// changed initializer (`classify`); a type with none has only implicit ones, reported as
    /// `Type.init`, which no thunk can route.
    private static func initializerChanges(of layout: Baseline.Declaration, current: PreparePlan, reported: Set<String>,
                                           classify: (Baseline.Declaration) -> DeclarationChange) -> [DeclarationChange] {
        let note = "a stored property's default value (or `let`/`var`) changed, not the memory layout"
        let initializers = current.baseline.declarations.filter { $0.kind == .initializer && $0.id.hasPrefix(layout.id + ".init(") }
        guard !initializers.isEmpty else {
            return [DeclarationChange(
                id: layout.id + ".init", kind: .initializer, change: .modified, status: .nativeOnly, reason: DeclarationChange.NativeReason.notRouted,
                detail: note + ": the type's implicit initializers set it, and they have no declaration a thunk could route (declare `init(…)` in the type to make it patchable)",
                location: GuestSourceLocation(file: layout.file, line: current.declarationLines[layout.id] ?? 0))]
        }
        return initializers.filter { !reported.contains($0.id) }.map { initializer in
            var change = classify(initializer)
            change.detail = note + ": this initializer sets it" + (change.detail.map { "; " + $0 } ?? "")
            return change
        }
    }

    /// `previous`: the baseline's record of it (nil for an initializer judged for its type's defaults).
    private static func classifyModification(_ declaration: Baseline.Declaration, previous: Baseline.Declaration? = nil, shipped: Baseline, current: PreparePlan,
                                             shippedExports: Set<String>, shippedViewNames: PatchNames.ViewNames, location: GuestSourceLocation) -> DeclarationChange {
        func native(_ reason: String, _ detail: String) -> DeclarationChange {
            DeclarationChange(id: declaration.id, kind: declaration.kind, change: .modified, status: .nativeOnly, reason: reason,
                              detail: detail, location: location)
        }
        /// Why prepare left the declaration un-routed: found by its baseline id, else (a skip of a
        /// whole file) by its line.
        func preparesSkip() -> PreparePlan.Skip? {
            current.skipped.first { $0.declarationID == declaration.id }
                ?? current.skipped.first { $0.file == declaration.file && $0.line == location.line }
        }
        switch declaration.kind {
        case .storedLayout:
            // Named property by property; a view's guest-held state ships with its body.
            return ViewStateShipping.change(of: declaration, previous: previous,
                                            viewName: ViewStateShipping.routedViewName(ofLayout: declaration, shippedViewNames: shippedViewNames),
                                            shipped: shipped, current: current, location: location)
        case .viewBody:
            let view = PatchNames.ViewIdentity(baselineID: declaration.id)
            guard view.flatMap(shippedViewNames.typeName(of:)) != nil else {
                let why = view.flatMap { shippedViewNames.names[$0] } == nil
                    ? "its baseline does not record it as a view" : "its patch name collides with another view's"
                return native(DeclarationChange.NativeReason.notRouted, "the shipped binary has no thunk for this view body (\(why))")
            }
            // A candidate: the guest build lowers it, or says what stopped it.
            return DeclarationChange(id: declaration.id, kind: declaration.kind, change: .modified, status: .patched, reason: nil,
                                     detail: nil, location: location)
        case .function, .method:
            if let routed = current.functions.first(where: { $0.declarationID == declaration.id }), shippedExports.contains(routed.export) {
                return DeclarationChange(id: declaration.id, kind: declaration.kind, change: .modified, status: .patched, reason: nil,
                                         detail: nil, location: location)
            }
            // A view-rendering `body(props:)` (the Redux-style ConnectedView): `// @patchable` would
            // not help, as prepare refuses opaque results, so say what does (before prepare's own
            // skip reason, which says less).
            if declaration.kind == .method, declaration.id.split(separator: "(").first?.split(separator: ".").last == "body" {
                return native(DeclarationChange.NativeReason.notRouted,
                              "no thunk routes a `body(…)` method that renders from its arguments (prepare routes a view's `var body` and a modifier's `body(content:)`; `// @patchable` cannot route a method returning `some View`); move the rendering into a view of its own (`struct …: View { let props: Props; var body: some View }`) that this method returns, whose `body` is routed (docs/prepare.md \"Bodies that are not routed\")")
            }
            if let skip = preparesSkip() {
                return native(DeclarationChange.NativeReason.notRouted, "prepare does not route it: \(skip.reason)")
            }
            return native(DeclarationChange.NativeReason.notRouted, Self.notRoutedAdvice)
        case .initializer, .computedProperty:
            // A computed property routed by its getter is a candidate as a function is.
            if let routed = current.functions.first(where: { $0.declarationID == declaration.id }), shippedExports.contains(routed.export) {
                return DeclarationChange(id: declaration.id, kind: declaration.kind, change: .modified, status: .patched, reason: nil,
                                         detail: nil, location: location)
            }
            // The `body` of a ToolbarContent type, which `prepare` reports as not routable.
            if declaration.kind == .computedProperty, let owner = PatchNames.ViewIdentity(baselineID: declaration.id),
               let skip = current.skipped.first(where: { skip in
                   skip.file == declaration.file && skip.reason == Preparer.toolbarContentReason
                       && skip.declaration == owner.path.joined(separator: ".") + ".body"
               }) {
                return native(DeclarationChange.NativeReason.toolbarContentNotRoutable, skip.reason)
            }
            if let skip = preparesSkip() {
                return native(DeclarationChange.NativeReason.notRouted, "prepare does not route it: \(skip.reason)")
            }
            return native(DeclarationChange.NativeReason.notRouted, Self.notRoutedAdvice)
        }
    }

    /// What a function, method, computed property or initializer the shipped binary does not route,
    /// and prepare gave no reason for, needs.
    static let notRoutedAdvice = "the shipped binary has no thunk for it; have prepare route it (`routing: all` in patch.json, or `// @patchable` on it; not `// @native`, not in a `routingExclude` file), then run prepare and ship to make it patchable"

    /// A callable's id without its parameter types (`T:Pricing.fee(_:Int)` → `T:Pricing.fee(_`):
    /// equal for two ids that differ only in types. Nil for ids that are not callables.
    private static func labelsOnly(_ id: String) -> String? {
        guard let open = id.firstIndex(of: "(") else { return nil }
        let labels = id[open...].split(separator: ",").map { $0.split(separator: ":").first.map(String.init) ?? "" }
        return String(id[..<open]) + labels.joined(separator: ",")
    }
}
