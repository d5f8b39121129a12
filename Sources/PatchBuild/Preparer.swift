import Foundation
import PatchManifest
import ProjectWiring
import SwiftParser
import SwiftSyntax

/// One Swift source file of a target, as read from disk.
public struct SourceFile: Sendable {
    /// Relative to the project root, `/`-separated.
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// A target's sources, as `prepare` sees them.
public struct PrepareTarget: Sendable {
    public var name: String
    /// Each root receives the routing file of its files in its `Patch/` folder (`Preparer.generatedFolder`).
    public var sourceRoots: [String]
    public var files: [SourceFile]
    /// The files the target compiles when its project lists them (an Xcode target); nil: every Swift
    /// file under its source roots. Routing code goes only to the targets that compile its files.
    public var compiledFiles: CompiledFiles?
    /// Roots the project gives the target that patch.json does not record (included in `sourceRoots`).
    public var addedSourceRoots: [String]

    public init(name: String, sourceRoots: [String], files: [SourceFile], compiledFiles: CompiledFiles? = nil, addedSourceRoots: [String] = []) {
        self.name = name
        self.sourceRoots = sourceRoots
        self.files = files
        self.compiledFiles = compiledFiles
        self.addedSourceRoots = addedSourceRoots
    }

    /// The name its code is imported by, as SwiftPM and Xcode derive it from the target's name when
    /// none is set: each character that cannot be in an identifier becomes `_` (`Backyard Birds` →
    /// `Backyard_Birds`), and a leading digit gets a `_` before it.
    public var moduleName: String {
        let characters = name.map { $0 == "_" || $0.isLetter || $0.isNumber ? $0 : "_" }
        return (characters.first?.isNumber == true ? "_" : "") + String(characters)
    }

    /// Whether the target compiles `path` (relative to the project root).
    func compiles(_ path: String) -> Bool {
        if let compiledFiles { return compiledFiles.contains(path) }
        return sourceRoots.contains { $0 == path || $0 == "." || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }
}

/// What `prepare` did (or would do) to a project.
public struct PreparePlan: Sendable {
    /// A file whose content changes: `before` nil creates it, `after` nil deletes it.
    public struct FileUpdate: Sendable, Equatable {
        public var path: String
        public var before: [UInt8]?
        public var after: [UInt8]?
    }

    public struct RoutedView: Sendable, Equatable {
        public var target: String
        public var typeName: String
        public var declaredName: String
        public var file: String
        public var line: Int
        public var contentHash: String
    }

    public struct RoutedFunction: Sendable, Equatable {
        public var target: String
        /// Its id in the baseline (`Target:Type.name(label:Type)`).
        public var declarationID: String
        public var key: String
        public var export: String
        public var file: String
        public var line: Int
        /// Its thunk sends `self` (or reads it back): an instance member, whose module holds the type's
        /// stored layout.
        public var sendsReceiver: Bool
    }

    public struct Skip: Sendable, Equatable {
        public var file: String
        public var line: Int
        public var declaration: String
        public var reason: String
        /// The baseline id of the declaration skipped, for a function, method, initializer or
        /// computed property: `build` finds the skip by it (the line differs when attributes sit
        /// on lines of their own: the skip names the keyword's line, the baseline the first one).
        public var declarationID: String? = nil
    }

    /// Changes to user files, generated files and nothing else (the `.patch/` state is the caller's).
    public var updates: [FileUpdate]
    public var baseline: Baseline
    /// The line each baseline declaration starts on, by id (the baseline itself has no lines).
    public var declarationLines: [String: Int]
    /// The baseline's canonical JSON: the content of `.patch/baseline.json`.
    public var baselineBytes: [UInt8]
    /// The fingerprint of the default platform's build (`platforms[0]`); the others' are
    /// `BuildFingerprint.compute(canonicalBaseline: baselineBytes, platform:)`.
    public var fingerprint: String
    /// The platforms the app ships a build for, the default first (`Baseline.platforms`).
    public var platforms: [AppPlatform] { baseline.platforms }
    public var views: [RoutedView]
    public var functions: [RoutedFunction]
    public var skipped: [Skip]
    public var collisions: [PatchNames.Collision]
    public var filesScanned: Int
    /// Files parsed by this run: those not found in the scan cache.
    public var filesParsed: Int
    /// Wall-clock time during which swift-syntax's `Parser.parse` ran on at least one file (files
    /// are parsed on every core, so this is at most the run's own wall time).
    public var parseSeconds: Double
    /// Time spent in `Parser.parse` summed over files: what parsing alone costs on one core (the
    /// denominator of `benchmarks/prepare`); above `parseSeconds` when files parse in parallel.
    public var parseCPUSeconds: Double
    /// What this run inserted into each user file, for `--revert` (see `Unpreparer`).
    public var insertions: [String: PreparedInsertions]
    /// SHA-256 of each rewritten user file's new bytes, by path (also its key in `cache`).
    public var preparedHashes: [String: String]
    /// The scans of this run's files, to pass to the next run.
    public var cache: ScanCache
    /// The targets that compile each generated file, by path: a routing file goes only to the targets
    /// compiling every file it routes, the fingerprint to the app target (what wiring registers).
    public var generatedFileTargets: [String: [String]]
    /// Folders the Xcode project gives a target that patch.json does not record (they were prepared).
    public var addedSourceRoots: [ProjectSources.AddedSourceRoot]
    /// The `PreviewProvider` types, `Target:Type.path`: `build` reports changes of their code as
    /// informational, as it never runs on devices.
    public var previewTypes: Set<String> = []
}

/// Scans of files by the SHA-256 of their bytes, kept in `.patch/cache/scans.bin` so a re-run
/// parses only the files that changed.
public struct ScanCache: Sendable, Equatable {
    /// Bumped whenever `SourceScanner` records something new or differently: an older cache is ignored.
    public static let formatVersion = 15
    public static let path = ".patch/cache/scans.bin"
    /// First bytes of the file, so that anything else at that path is never read as scans.
    static let magic = Array("patchcli scan cache\n".utf8)

    private(set) var scans: [String: FileScan] = [:]
    /// Each scan's `CompactCoder` form where it is already known: read from the file, or made with
    /// the scan on the core that made it, so that writing the cache only joins bytes.
    private var encodedScans: [String: ArraySlice<UInt8>] = [:]

    public init() {}

    /// The cache in a file, or an empty one when the bytes are from another version or unreadable
    /// (a cache is never worth failing for).
    public init(bytes: [UInt8]) {
        guard bytes.starts(with: Self.magic) else { return }
        let source = CompactCoder.Source(bytes[Self.magic.count...])
        guard let version = try? source.readUnsigned(), version == Self.formatVersion,
              let count = try? source.readLength() else { return }
        var entries: [(hash: String, scan: ArraySlice<UInt8>)] = []
        for _ in 0..<count {
            guard let hash = try? source.readString(), let length = try? source.readLength() else { return }
            let start = source.position
            guard (try? source.skip(length)) != nil else { return }
            entries.append((hash, bytes[start..<start + length]))
        }
        guard source.isAtEnd else { return }
        let decoded = ConcurrentMap.map(entries) { entry in try? CompactCoder.decode(FileScan.self, from: entry.scan) }.compactMap { $0 }
        // One unreadable scan means a damaged file: trust none of it.
        guard decoded.count == entries.count else { return }
        scans = Dictionary(zip(entries.map(\.hash), decoded), uniquingKeysWith: { first, _ in first })
        encodedScans = Dictionary(entries, uniquingKeysWith: { first, _ in first })
    }

    /// Adds the scan of the file whose bytes hash to `hash`, with its compact form when the caller
    /// has it (`encoded()` makes the missing ones).
    mutating func insert(_ scan: FileScan, hash: String, encoded: ArraySlice<UInt8>? = nil) {
        scans[hash] = scan
        encodedScans[hash] = encoded
    }

    /// The compact form of a scan: the one read or inserted with it, else freshly encoded (nil when
    /// it cannot be: that file is then parsed again next run).
    func encodedScan(hash: String, scan: FileScan) -> ArraySlice<UInt8>? {
        if let known = encodedScans[hash] { return known }
        return (try? CompactCoder.encode(scan)).map { $0[...] }
    }

    /// The cache file: the magic line, the format version, the entry count, then per entry (sorted by
    /// hash) the hash and the length-prefixed scan in `CompactCoder` form.
    public func encoded() -> [UInt8] {
        let entries = scans.sorted { $0.key < $1.key }.compactMap { hash, scan in
            encodedScan(hash: hash, scan: scan).map { (hash: hash, scan: $0) }
        }
        let sink = CompactCoder.Sink()
        sink.reserveCapacity(Self.magic.count + 16 + entries.reduce(0) { size, entry in size + 80 + entry.scan.count })
        sink.append(contentsOf: Self.magic[...])
        sink.writeUnsigned(UInt64(Self.formatVersion))
        sink.writeUnsigned(UInt64(entries.count))
        for (hash, scan) in entries {
            sink.writeString(hash)
            sink.writeUnsigned(UInt64(scan.count))
            sink.append(contentsOf: scan)
        }
        return sink.bytes
    }

    /// Equal when they hold scans of the same file contents (entries are content-addressed).
    public static func == (lhs: ScanCache, rhs: ScanCache) -> Bool {
        Set(lhs.scans.keys) == Set(rhs.scans.keys)
    }
}

/// The insertions `prepare` made in one file beyond renaming `body`, so `--revert` can take exactly
/// those back out even after the user edited the file.
public struct PreparedInsertions: Sendable, Codable, Equatable {
    /// Owners (`Outer.Inner`) of bodies that received `@ViewBuilder`.
    public var viewBuilderOwners: [String] = []
    /// Owners of bodies that received `@MainActor`.
    public var mainActorOwners: [String] = []
    /// Functions (`PatchNames.functionKey`) that received `dynamic`.
    public var dynamicFunctions: [String] = []
    /// `private` members (`FunctionCandidate.key`) widened to `fileprivate` (`PrivateMemberWidening`).
    public var widenedMembers: [String] = []

    public init(viewBuilderOwners: [String] = [], mainActorOwners: [String] = [], dynamicFunctions: [String] = [], widenedMembers: [String] = []) {
        self.viewBuilderOwners = viewBuilderOwners
        self.mainActorOwners = mainActorOwners
        self.dynamicFunctions = dynamicFunctions
        self.widenedMembers = widenedMembers
    }

    /// Absent lists read as empty, so state files written before a list existed stay readable.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        viewBuilderOwners = try container.decodeIfPresent([String].self, forKey: .viewBuilderOwners) ?? []
        mainActorOwners = try container.decodeIfPresent([String].self, forKey: .mainActorOwners) ?? []
        dynamicFunctions = try container.decodeIfPresent([String].self, forKey: .dynamicFunctions) ?? []
        widenedMembers = try container.decodeIfPresent([String].self, forKey: .widenedMembers) ?? []
    }

    public func merged(with other: PreparedInsertions) -> PreparedInsertions {
        PreparedInsertions(viewBuilderOwners: Array(Set(viewBuilderOwners + other.viewBuilderOwners)).sorted(),
                           mainActorOwners: Array(Set(mainActorOwners + other.mainActorOwners)).sorted(),
                           dynamicFunctions: Array(Set(dynamicFunctions + other.dynamicFunctions)).sorted(),
                           widenedMembers: Array(Set(widenedMembers + other.widenedMembers)).sorted())
    }

    public var isEmpty: Bool { viewBuilderOwners.isEmpty && mainActorOwners.isEmpty && dynamicFunctions.isEmpty && widenedMembers.isEmpty }

    /// The edits that take out what these insertions put into `function`'s declaration (its `dynamic`,
    /// the `file` of its widened `private`, an async function's `AsyncPrologue`): for `--revert` of an edited file, and for a function a
    /// later `prepare` no longer routes.
    func removalEdits(for function: FunctionCandidate) -> [SourceEdit] {
        var edits: [SourceEdit] = []
        if let range = function.dynamicRange, dynamicFunctions.contains(function.key) { edits.append(SourceEdit(range: range, replacement: "")) }
        if let keyword = function.fileprivateKeyword, widenedMembers.contains(function.key) {
            edits.append(SourceEdit(range: PrivateMemberWidening.insertedRange(fileprivateKeyword: keyword), replacement: ""))
        }
        // Recognised by its tokens, not recorded: no list needs to say which function has one.
        if let prologue = function.prologue {
            edits.append(SourceEdit(range: prologue.removalRange, replacement: ""))
            if let inserted = prologue.insertedReturn { edits.append(SourceEdit(range: inserted, replacement: "")) }
        }
        return edits
    }

    /// The Codable form as a tree (how `PrepareState` writes it).
    var jsonValue: JSONValue {
        .object([CodingKeys.viewBuilderOwners.stringValue: .array(viewBuilderOwners.map(JSONValue.string)),
                 CodingKeys.mainActorOwners.stringValue: .array(mainActorOwners.map(JSONValue.string)),
                 CodingKeys.dynamicFunctions.stringValue: .array(dynamicFunctions.map(JSONValue.string)),
                 CodingKeys.widenedMembers.stringValue: .array(widenedMembers.map(JSONValue.string))])
    }
}

/// The prepare rewriter: finds every view body of the given targets and every function their
/// `RoutingSelection` selects, plans the minimal edits that route them through Patch, the generated
/// routing code, the baseline and the build fingerprint. Pure: reads nothing and writes nothing; the
/// caller supplies files and applies `PreparePlan.updates`.
public enum Preparer {
    public static let routingFileName = "PatchThunks.generated.swift"
    public static let fingerprintFileName = "PatchFingerprint.generated.swift"
    /// The folder, in a source root, that holds every file `prepare` and `init` generate for it.
    public static let generatedFolderName = "Patch"

    /// Where a source root's generated files go: its `Patch/` folder. A root that is a single file
    /// (a SwiftPM `sources:` entry) uses its folder; a root inside an asset catalog, a localization,
    /// a bundle or a `Resources` folder uses the first folder above those, so generated code is never
    /// copied as a resource.
    public static func generatedFolder(forSourceRoot root: String) -> String {
        var parts = root.split(separator: "/").map(String.init).filter { $0 != "." }
        if parts.last?.hasSuffix(".swift") == true { parts.removeLast() }
        if let resource = parts.firstIndex(where: isResourceFolder) { parts.removeSubrange(resource...) }
        return join(parts.joined(separator: "/"), generatedFolderName)
    }

    private static func isResourceFolder(_ name: String) -> Bool {
        name == "Resources" || [".xcassets", ".lproj", ".bundle", ".xcdatamodeld", ".docc"].contains { name.hasSuffix($0) }
    }

    /// A source root's routing file. Named after the root, because a target compiling several roots
    /// may not hold two files of the same name (Xcode and swiftc refuse "filename used twice"):
    /// `Sources/App` → `Sources/App/Patch/PatchThunks-Sources_App.generated.swift`.
    ///
    /// When the files of one root are not all compiled by the same targets (an Xcode target compiling
    /// only some of a folder's files), each set of targets gets its own file, named after them too:
    /// `Shared/Patch/PatchThunks-Shared-Mac+iOS.generated.swift`, registered in those targets only.
    public static func routingFilePath(sourceRoot: String, compilingTargets: [String]? = nil) -> String {
        let folder = generatedFolder(forSourceRoot: sourceRoot)
        var owner = fileNameComponent((folder as NSString).deletingLastPathComponent)
        if let compilingTargets { owner += (owner.isEmpty ? "" : "-") + compilingTargets.map(fileNameComponent).joined(separator: "+") }
        let name = owner.isEmpty ? routingFileName : routingFileName.replacingOccurrences(of: ".generated.swift", with: "-\(owner).generated.swift")
        return join(folder, name)
    }

    /// `text` with `/` and every character outside `A-Z a-z 0-9` as `_`.
    private static func fileNameComponent(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? scalar : "_"
        }))
    }

    /// The app target's fingerprint constant (`PatchBuildFingerprint.value`), in its first root's `Patch/` folder.
    public static func fingerprintFilePath(appSourceRoot: String) -> String {
        join(generatedFolder(forSourceRoot: appSourceRoot), fingerprintFileName)
    }

    /// Where releases before the `Patch/` folder wrote a root's generated file: a re-run deletes it.
    static func legacyGeneratedPath(sourceRoot: String, fileName: String) -> String {
        join(sourceRoot, fileName)
    }

    /// Why a `ToolbarContent` body is not routed; `build` reports a change of it as
    /// `toolbar_content_not_routable` (docs/cli.md, docs/prepare.md "Bodies that are not routed").
    /// What `prepare` and `build` say of code in a `PreviewProvider`.
    static let previewCode = "preview code (a `PreviewProvider`): only Xcode's canvas runs it, never a device"
    static let toolbarContentReason = "a `ToolbarContent` body cannot be routed: the SDK's `thunkBody` returns a view (`PatchedBodyHost`, sdk-contract §5.1), which is not `ToolbarContent`; patch the views inside its items (their own `body`) instead"

    /// The protocols whose `body` the system reads once, when the app or extension starts, and
    /// never again: no thunk can swap it for a patch (docs/prepare.md "Bodies that are not routed").
    static let launchBodyProtocols = ["App", "Scene", "Widget", "WidgetBundle"]

    /// Why the `body` of a type conforming to `protocolName` (one of `launchBodyProtocols`) is not routed.
    static func launchBodyReason(of protocolName: String) -> String {
        switch protocolName {
        case "Widget", "WidgetBundle":
            return "a widget's `body` (`some \(protocolName == "Widget" ? "WidgetConfiguration" : "Widget")`) is not a view: WidgetKit reads it once, when the extension starts, to register the widgets and their configurations, and never asks again, so no patch can replace it; ship it in an app release (the views the widget draws are patched through their own `body`)"
        default:
            return "a Scene body (`some Scene`) is not a view: SwiftUI evaluates it once, when the app launches, to set up its windows and scenes, and never asks again, so no patch can replace it; ship it in an app release (the views inside its scenes are patched through their own `body`)"
        }
    }

    /// - Parameters:
    ///   - routing: which functions to route (patch.json's `routing`, `routingExclude`, `patchableFunctions`).
    ///   - existingFile: the current bytes of a generated file's path, nil when absent.
    ///   - cache: scans of earlier runs by file content hash; files found there are not parsed again.
    ///   - previouslyGenerated: the files an earlier run generated (`PrepareState.generatedFiles`):
    ///     those this run does not generate again are deleted.
    ///   - previousInsertions: what earlier runs inserted, by file (`PrepareState`): the `dynamic` of
    ///     a function this run no longer routes is taken back out.
    ///   - platforms: the platforms the app ships a build for, the default first (`ProjectPlatforms`):
    ///     recorded in the baseline, one fingerprint each in the fingerprint file.
    public static func plan(targets: [PrepareTarget], appTarget: String, routing: RoutingSelection,
                            cache: ScanCache = ScanCache(), previouslyGenerated: [String] = [],
                            previousInsertions: [String: PreparedInsertions] = [:], assets: [Baseline.Asset] = [], platforms: [AppPlatform] = [.iOS],
                            existingFile: (String) -> [UInt8]?) -> PreparePlan {
        var planner = Planner(routing: routing, cache: cache, targets: targets, previousInsertions: previousInsertions, platforms: platforms)
        var scanned = targets.map { planner.analyze($0) }
        planner.resolveViewTypes(&scanned)
        let analyses = scanned
        planner.indexCodableTypes(analyses)
        planner.resolveViewTokens(analyses)
        planner.resolveGenericViewContent(analyses)
        // The baseline and the fingerprint depend on the scans and the tokens alone: they are made on
        // another thread while files are emitted.
        let viewTokens = planner.viewTokens
        let baselineWork = BackgroundWork { Planner.baseline(of: analyses, viewTokens: viewTokens, platforms: platforms, assets: assets) }
        planner.resolveNames(analyses)
        var updates: [PreparePlan.FileUpdate] = []
        /// A generated file's new content (nil: the path must not exist), by path.
        var generated: [String: [UInt8]?] = Dictionary(previouslyGenerated.map { ($0, nil) }, uniquingKeysWith: { first, _ in first })
        /// The targets that compile each generated file (what wiring registers it in).
        var generatedFileTargets: [String: [String]] = [:]
        var routing: [RoutingKey: (targets: [String], imports: Set<String>, thunks: [String])] = [:]
        var routingKeys: [RoutingKey] = []
        for analysis in analyses {
            let output = planner.emit(analysis)
            updates += output.userFileUpdates
            for sourceRoot in analysis.target.sourceRoots {
                generated[legacyGeneratedPath(sourceRoot: sourceRoot, fileName: routingFileName)] = .some(nil)
                generated[routingFilePath(sourceRoot: sourceRoot)] = .some(nil)
            }
            for (key, file) in output.routingFiles {
                var entry = routing[key] ?? ([], [], [])
                if entry.thunks.isEmpty { routingKeys.append(key) }
                if !entry.targets.contains(analysis.target.name) { entry.targets.append(analysis.target.name) }
                entry.imports.formUnion(file.imports)
                entry.thunks += file.thunks
                routing[key] = entry
            }
        }
        // One routing file per root, unless the root's files are compiled by different sets of targets.
        let setsPerRoot = Dictionary(grouping: routingKeys, by: \.sourceRoot)
        for key in routingKeys {
            let entry = routing[key]!
            let path = setsPerRoot[key.sourceRoot]!.count == 1 ? routingFilePath(sourceRoot: key.sourceRoot)
                : routingFilePath(sourceRoot: key.sourceRoot, compilingTargets: key.compilingTargets)
            generated[path] = Array(ThunkEmitter.file(targets: entry.targets, imports: entry.imports.sorted(), thunks: entry.thunks).utf8)
            generatedFileTargets[path] = key.compilingTargets
        }
        let (baseline, baselineBytes, fingerprint, declarationLines) = baselineWork.wait()
        if let app = targets.first(where: { $0.name == appTarget }) ?? targets.first {
            let appRoot = app.sourceRoots.first ?? ""
            generated[legacyGeneratedPath(sourceRoot: appRoot, fileName: fingerprintFileName)] = .some(nil)
            generated[fingerprintFilePath(appSourceRoot: appRoot)] = Array(ThunkEmitter.fingerprintFile(canonicalBaseline: baselineBytes, platforms: baseline.platforms).utf8)
            generatedFileTargets[fingerprintFilePath(appSourceRoot: appRoot)] = [app.name]
        }
        for (path, bytes) in generated {
            let existing = existingFile(path)
            // Only files prepare wrote are ever deleted (a user file may sit at a legacy path).
            if bytes == nil, let existing, !isGenerated(existing) { continue }
            if existing != bytes { updates.append(.init(path: path, before: existing, after: bytes)) }
        }
        return PreparePlan(
            updates: updates.sorted { $0.path < $1.path }, baseline: baseline, declarationLines: declarationLines, baselineBytes: baselineBytes, fingerprint: fingerprint,
            views: planner.views.sorted { ($0.typeName, $0.file, $0.line) < ($1.typeName, $1.file, $1.line) },
            functions: planner.functions.sorted { $0.export < $1.export },
            skipped: planner.skipped.sorted { ($0.file, $0.line, $0.reason) < ($1.file, $1.line, $1.reason) },
            collisions: planner.collisions, filesScanned: planner.filesScanned, filesParsed: planner.filesParsed,
            parseSeconds: ParseTime.wallClock(planner.parseIntervals).inSeconds,
            parseCPUSeconds: planner.parseIntervals.reduce(Duration.zero) { $0 + ($1.upperBound - $1.lowerBound) }.inSeconds,
            insertions: planner.insertions, preparedHashes: planner.preparedHashes, cache: planner.nextCache,
            generatedFileTargets: generatedFileTargets,
            addedSourceRoots: targets.flatMap { target in target.addedSourceRoots.map { ProjectSources.AddedSourceRoot(target: target.name, root: $0) } },
            previewTypes: Set(analyses.flatMap { analysis in analysis.previewTypes.map { "\(analysis.target.name):\($0)" } }))
    }

    /// True when a file was written by `prepare` (never scanned as a user source).
    public static func isGenerated(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array(PreparedNames.generatedHeader.utf8))
    }

    /// `directory/name`, or `name` alone when `directory` is empty or `.`.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty || directory == "." ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }
}

/// Splits a user file into its own text and the section `prepare` appended earlier (if any).
enum GeneratedSection {
    static func split(_ bytes: [UInt8]) -> (user: [UInt8], hadSection: Bool) {
        guard let range = range(in: bytes) else { return (bytes, false) }
        return (Array(bytes[..<range.lowerBound]) + Array(bytes[range.upperBound...]), true)
    }

    /// The generated section with the newline before it, as `split` takes it out; nil when none.
    static func section(of bytes: [UInt8]) -> [UInt8]? {
        range(in: bytes).map { Array(bytes[$0]) }
    }

    private static func range(in bytes: [UInt8]) -> Range<Int>? {
        let marker = Array(("\n" + PreparedNames.sectionBegin).utf8)
        let endMarker = Array((PreparedNames.sectionEnd + "\n").utf8)
        guard let start = firstRange(of: marker, in: bytes),
              let end = firstRange(of: endMarker, in: bytes, from: start.upperBound)
        else { return nil }
        return start.lowerBound..<end.upperBound
    }

    /// A plain byte search: the generic `firstRange(of:)` looks up type metadata under a global lock
    /// on every call, which serialized the threads that prepare files.
    static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Range<Int>? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index += 1
        }
        return nil
    }
}

private struct ParsedFile {
    var path: String
    var original: [UInt8]
    /// The file without a previously generated section.
    var userBytes: [UInt8]
    /// SHA-256 of `original`: its key in the scan cache.
    var contentHash: String
    var scan: FileScan
}

private struct TargetAnalysis {
    var target: PrepareTarget
    var files: [ParsedFile]
    var declaredTypes: [String: DeclaredType]
    /// The file declaring each of `declaredTypes` (the first, as `declaredTypes` keeps the first).
    var typeFiles: [String: String] = [:]
    /// What each declared type conforms to, in its declaration and the target's extensions, as written.
    var conformances: [String: [String]]
    /// The declared types that are SwiftUI views (`Planner.resolveViewTypes`).
    var viewTypes: Set<String> = []
    /// The declared types that are `ViewModifier`s, whose `body(content:)` is routed.
    var modifierTypes: Set<String> = []
    /// The declared types that are `ToolbarContent`: their `body` is reported, never routed.
    var toolbarContentTypes: Set<String> = []
    /// Where each member of a type or protocol extension is declared (`file:line`), by
    /// `FunctionCandidate.key`: what `Planner.wideningReason` looks a `private` member's name up in.
    var memberLocations: [String: [String]] = [:]
    /// The declared types whose `body` the system reads once at launch (`App`, `Scene`, `Widget`,
    /// `WidgetBundle`), with the reason no thunk routes it (`Preparer.launchBodyReason`).
    var launchBodyReasons: [String: String] = [:]
    /// The declared types that are `PreviewProvider`s: their code runs in Xcode's canvas only.
    var previewTypes: Set<String> = []

    /// Whether `prepare` routes this body: a `var body` of a view, a `func body(content:)` of a modifier,
    /// unless the type is nested in a `PreviewProvider` (`AccountView_Previews.Preview`), which no
    /// device runs.
    func routes(_ body: BodyCandidate) -> Bool {
        isViewBody(body) && !isPreviewCode(body)
    }

    func isViewBody(_ body: BodyCandidate) -> Bool {
        let owner = body.ownerPath.joined(separator: ".")
        return body.modifierContent == nil ? viewTypes.contains(owner) : modifierTypes.contains(owner)
    }

    /// Whether the body's type is a `PreviewProvider` or nested in one.
    func isPreviewCode(_ body: BodyCandidate) -> Bool {
        !previewTypes.isEmpty && body.ownerPath.indices.contains { previewTypes.contains(body.ownerPath[...$0].joined(separator: ".")) }
    }
}

/// What one file adds to its target's output.
private struct FileEmission {
    var update: PreparePlan.FileUpdate?
    /// The file's scan as this run leaves it, by the hash of its new bytes, and its compact form: what
    /// the next run reads.
    var cachedScan: (hash: String, scan: FileScan, encoded: ArraySlice<UInt8>?) = ("", FileScan(), nil)
    var insertions = PreparedInsertions()
    var routingThunks: [String] = []
    var routingImports = Set<String>()
    var views: [PreparePlan.RoutedView] = []
    var functions: [PreparePlan.RoutedFunction] = []
    var skipped: [PreparePlan.Skip] = []
}

/// Where a file's routing code goes: the innermost source root holding the file, and the targets
/// that compile the file (sorted), since only those may compile its thunks.
private struct RoutingKey: Hashable {
    var sourceRoot: String
    var compilingTargets: [String]
}

private struct TargetOutput {
    var userFileUpdates: [PreparePlan.FileUpdate] = []
    /// The routing code of each source root's files, by root and compiling targets, in file order.
    var routingFiles: [(key: RoutingKey, file: (imports: Set<String>, thunks: [String]))] = []
}

private struct Planner {
    let routing: RoutingSelection
    /// What earlier runs inserted, by file.
    let previousInsertions: [String: PreparedInsertions]
    let cache: ScanCache
    /// The scans of this run's files, for the next run.
    var nextCache = ScanCache()
    var views: [PreparePlan.RoutedView] = []
    var functions: [PreparePlan.RoutedFunction] = []
    var skipped: [PreparePlan.Skip] = []
    var collisions: [PatchNames.Collision] = []
    var filesScanned = 0
    var filesParsed = 0
    /// When each parsed file's `Parser.parse` ran.
    var parseIntervals: [Range<ContinuousClock.Instant>] = []
    var insertions: [String: PreparedInsertions] = [:]
    var preparedHashes: [String: String] = [:]
    /// The patch name of every view; a colliding view has none and is not routed.
    private var viewNames = PatchNames.viewTypeNames([])
    /// The host tokens each view's thunk passes, by the baseline id of its body (`Target:Type.body`).
    private(set) var viewTokens: [String: [ViewToken]] = [:]
    /// The bodies (by baseline id) whose tokens read a `private` property: their thunk goes in the
    /// section appended to the view's file, the only place outside the type that sees it.
    private var fileScopedTokenReads: Set<String> = []
    /// Function exports claimed by more than one function: none of them is routed.
    private var collidingFunctionExports: Set<String> = []
    /// What every target declares, to check that function thunks' types are Codable.
    private var codableIndex = CodableIndex()
    /// The `public` enums of every target and their files: a value mirror can copy one declared in a
    /// target the function's imports (its cases are public; a struct's memberwise initializer is not).
    private var publicEnums: [String: DeclaredType] = [:]
    private var publicEnumFiles: [String: String] = [:]

    /// The source roots of every target: a file's routing code goes to the innermost one holding it.
    let sourceRoots: Set<String>
    /// Every target, to know which compile a file.
    let targets: [PrepareTarget]

    /// The platforms the app ships a build for: a view's host reads are found in the `#if` branches
    /// of the first platform whose build compiles the view.
    let platforms: [AppPlatform]

    init(routing: RoutingSelection, cache: ScanCache, targets: [PrepareTarget], previousInsertions: [String: PreparedInsertions],
         platforms: [AppPlatform]) {
        self.platforms = platforms.isEmpty ? [.iOS] : platforms
        self.sourceRoots = Set(targets.flatMap(\.sourceRoots))
        self.targets = targets
        self.routing = routing
        self.previousInsertions = previousInsertions
        self.cache = cache
    }

    mutating func analyze(_ target: PrepareTarget) -> TargetAnalysis {
        let sources = target.files.filter { !Preparer.isGenerated($0.bytes) }
        // Files are hashed, parsed and scanned independently, on every core; the results are folded
        // in file order, so the plan does not depend on scheduling.
        let outcomes = ConcurrentMap.map(sources) { [cache] file in Self.read(file, cache: cache) }
        var files: [ParsedFile] = []
        for outcome in outcomes {
            filesScanned += 1
            switch outcome {
            case let .skipped(skip):
                skipped.append(skip)
            case let .cached(file):
                files.append(file)
            case let .parsed(file, parseInterval):
                filesParsed += 1
                parseIntervals.append(parseInterval)
                files.append(file)
            case let .unparsable(skip, parseInterval):
                filesParsed += 1
                parseIntervals.append(parseInterval)
                skipped.append(skip)
            }
        }
        var declaredTypes: [String: DeclaredType] = [:]
        var typeFiles: [String: String] = [:]
        var conformances: [String: [String]] = [:]
        for file in files {
            for type in file.scan.types {
                let key = type.path.joined(separator: ".")
                if declaredTypes[key] == nil { typeFiles[key] = file.path }
                declaredTypes[key] = declaredTypes[key] ?? type
                conformances[key, default: []] += type.inheritedTypes
            }
            for extensionScan in file.scan.extensions {
                conformances[extensionScan.extendedPath.joined(separator: "."), default: []] += extensionScan.inheritedTypes
            }
        }
        var memberLocations: [String: [String]] = [:]
        for file in files {
            for function in file.scan.functions where !function.ownerPath.isEmpty {
                memberLocations[function.key, default: []].append("\(file.path):\(function.line)")
            }
        }
        return TargetAnalysis(target: target, files: files, declaredTypes: declaredTypes, typeFiles: typeFiles,
                              conformances: conformances.filter { declaredTypes[$0.key] != nil }, memberLocations: memberLocations)
    }

    /// Finds each target's views: its types that conform to `View` directly, through protocols that
    /// refine it or through typealiases of those, declared in any target. A view whose only `body`
    /// comes from a protocol extension is reported: there is no body of its own to route.
    mutating func resolveViewTypes(_ analyses: inout [TargetAnalysis]) {
        let conformance = ViewConformance(analyses.map { analysis in
            (analysis.target.name, analysis.files.map { ($0.path, $0.scan) })
        })
        for index in analyses.indices {
            let target = analyses[index].target.name
            let viewTypes = Set(analyses[index].conformances.filter { _, inherited in
                inherited.contains { conformance.isView($0, in: target) }
            }.keys)
            analyses[index].viewTypes = viewTypes
            analyses[index].modifierTypes = Set(analyses[index].conformances.filter { _, inherited in
                inherited.contains { conformance.isViewModifier($0, in: target) }
            }.keys)
            analyses[index].toolbarContentTypes = Set(analyses[index].conformances.filter { _, inherited in
                inherited.contains { conformance.isToolbarContent($0, in: target) }
            }.keys)
            for (type, inherited) in analyses[index].conformances where !viewTypes.contains(type) {
                if let launched = inherited.lazy.compactMap({ conformance.conformance(of: $0, among: Preparer.launchBodyProtocols, in: target) }).first {
                    analyses[index].launchBodyReasons[type] = Preparer.launchBodyReason(of: launched)
                }
                if inherited.contains(where: { conformance.conformance(of: $0, among: ["PreviewProvider"], in: target) != nil }) {
                    analyses[index].previewTypes.insert(type)
                }
            }
            let ownBodies = Set(analyses[index].files.flatMap { $0.scan.bodies.filter { $0.modifierContent == nil }.map { $0.ownerPath.joined(separator: ".") } })
            for file in analyses[index].files {
                for declaration in file.scan.declarations where declaration.kind == .storedLayout
                    && viewTypes.contains(declaration.localID) && !ownBodies.contains(declaration.localID) {
                    let inherited = analyses[index].conformances[declaration.localID] ?? []
                    guard let provider = inherited.lazy.compactMap({ conformance.extensionBody(through: $0, in: target) }).first else { continue }
                    skipped.append(.init(
                        file: file.path, line: declaration.line, declaration: "\(declaration.localID).body",
                        reason: "its `body` comes from `extension \(provider.protocolName)` (\(provider.file):\(provider.line)), which every conforming type shares; the type has no body of its own to route (declare `var body: some View` in it to route it)"))
                }
            }
        }
    }

    enum FileOutcome {
        case skipped(PreparePlan.Skip)
        case cached(ParsedFile)
        case parsed(ParsedFile, parseInterval: Range<ContinuousClock.Instant>)
        case unparsable(PreparePlan.Skip, parseInterval: Range<ContinuousClock.Instant>)
    }

    /// One file's scan: from the cache by content hash, else parsed and scanned.
    static func read(_ file: SourceFile, cache: ScanCache) -> FileOutcome {
        guard String(validating: file.bytes, as: UTF8.self) != nil else {
            return .skipped(.init(file: file.path, line: 0, declaration: "(file)", reason: "not valid UTF-8; the file was left untouched"))
        }
        let (userBytes, _) = GeneratedSection.split(file.bytes)
        let contentHash = SHA256Hasher.hex(of: file.bytes)
        if let cached = cache.scans[contentHash] {
            return .cached(ParsedFile(path: file.path, original: file.bytes, userBytes: userBytes, contentHash: contentHash, scan: cached))
        }
        let parseStart = ContinuousClock.now
        let tree = userBytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        let parseInterval = parseStart..<ContinuousClock.now
        guard !tree.hasError else {
            return .unparsable(.init(file: file.path, line: 0, declaration: "(file)",
                                     reason: "does not parse as Swift; fix its syntax errors, then run prepare again (the file was left untouched)"),
                               parseInterval: parseInterval)
        }
        let scan = SourceScanner.scan(tree, source: userBytes)
        return .parsed(ParsedFile(path: file.path, original: file.bytes, userBytes: userBytes, contentHash: contentHash, scan: scan), parseInterval: parseInterval)
    }

    /// Types are looked up across all targets: a function may take a type of a target it imports.
    mutating func indexCodableTypes(_ analyses: [TargetAnalysis]) {
        for analysis in analyses {
            for file in analysis.files { codableIndex.add(file.scan, module: analysis.target.moduleName) }
            for (key, type) in analysis.declaredTypes where type.kind == .enumType && type.isPublic && publicEnums[key] == nil {
                publicEnums[key] = type
                publicEnumFiles[key] = analysis.typeFiles[key]
            }
        }
    }

    /// Why a selected function that is fine on its own (`unsupportedReason`) cannot be routed in its
    /// target: its type is a protocol or generic (its values: `valueCodings`).
    private func targetUnsupportedReason(_ function: FunctionCandidate, in analysis: TargetAnalysis) -> String? {
        if let reason = function.unsupportedReason { return reason }
        if !function.ownerPath.isEmpty {
            if codableIndex.isProtocol(function.ownerPath) {
                return "members of protocol extensions cannot be replaced (each conforming type would need its own export)"
            }
            // Generic types of the project, constrained extensions, and the standard library's generic
            // types and protocols: the thunk would be generic.
            // Any enclosing type counts: `extension Box { struct Inner }` is generic through `Box<T>`.
            if (1...function.ownerPath.count).contains(where: { analysis.declaredTypes[function.ownerPath.prefix($0).joined(separator: ".")]?.isGeneric == true })
                || function.context.extensionWhereClause != nil
                || (!codableIndex.isDeclared(function.ownerPath) && function.ownerPath.count == 1
                    && CodableIndex.genericOrProtocolTypes.contains(function.ownerPath[0])) {
                return "members of generic types and protocols cannot be replaced (one export would have to serve every specialization)"
            }
        }
        return nil
    }

    /// How the function's parameters and result travel: as they are when they are Codable, else
    /// through value mirrors of the target's structs and enums (docs/prepare.md "Values that are not
    /// Codable"), or why they cannot.
    private func valueCodings(of function: FunctionCandidate, analysis: TargetAnalysis, planner: inout ValueMirrorPlanner) -> (ValueCodings, String?) {
        guard let reason = codableIndex.unsupportedReason(function) else { return (ValueCodings(), nil) }
        var parameters: [String: ValueCoding] = [:]
        for parameter in function.parameters {
            // An object of the target travels as a read-only copy, as a receiver's reference does.
            switch objectCopyCoding(of: parameter.type, scope: function.ownerPath, analysis: analysis, planner: &planner) {
            case let .success(coding)?:
                parameters[parameter.internalName] = coding
                continue
            case let .failure(refusal)?: return (ValueCodings(), "parameter type `\(parameter.type)`: \(refusal.reason)")
            case nil: break
            }
            switch planner.coding(of: parameter.type, scope: function.ownerPath, directions: [false]) {
            case let .failure(refusal): return (ValueCodings(), "parameter type `\(parameter.type)`: \(refusal.reason)")
            case let .success(coding): parameters[parameter.internalName] = coding
            }
        }
        var result: ValueCoding?
        if function.returnsValue, let returnType = function.returnType {
            // A routed setter sends the new value, of the same type.
            switch planner.coding(of: returnType, scope: function.ownerPath, directions: function.routesSetter ? [true, false] : [true]) {
            case let .failure(refusal): return (ValueCodings(), "the result type `\(returnType)`: \(refusal.reason)")
            case let .success(coding): result = coding
            }
        }
        // Mirrors are what the planner adds; without one, what Codable refused stands (a type found
        // through an enclosing type: the user is told how to write it).
        guard parameters.values.contains(where: \.hasMirror) || result?.hasMirror == true else { return (ValueCodings(), reason) }
        return (planner.codings(parameters: parameters, result: result), nil)
    }

    /// Why a `private` member cannot be widened to `fileprivate` (`PrivateMemberWidening`): a subclass
    /// in its file declares its name, the type has another member of the same name and labels, or a
    /// protocol it conforms to has one in an extension of the target.
    private func wideningReason(_ function: FunctionCandidate, in file: String, analysis: TargetAnalysis) -> String? {
        if let reason = function.wideningReason { return reason }
        let others = (analysis.memberLocations[function.key] ?? []).filter { $0 != "\(file):\(function.line)" }
        if let other = others.first {
            return "`\(function.key)` is declared again at \(other): widening this `private` member to `fileprivate` (how prepare routes it) would let code of \(file) that calls that one by scope see this one too; rename one of them"
        }
        let owner = function.ownerPath.joined(separator: ".")
        for conformance in analysis.conformances[owner] ?? [] {
            // A superclass's member of the same name would need `override` already: only protocols.
            let path = conformance.split(separator: ".").map(String.init)
            guard codableIndex.isProtocol(path) else { continue }
            let key = function.isProperty ? PatchNames.propertyKey(typePath: path, name: function.baseName)
                : PatchNames.functionKey(typePath: path, baseName: function.baseName, argumentLabels: function.parameters.map(\.label))
            if let location = analysis.memberLocations[key]?.first {
                return "`\(owner)` conforms to `\(conformance)`, whose extension declares `\(key)` at \(location): widening this `private` member to `fileprivate` (how prepare routes it) would make code of \(file) that calls that one on a `\(owner)` call this one instead; rename one of them"
            }
        }
        return nil
    }

    /// How an instance method's thunk sends `self` (a mirror of a struct's stored properties, an enum
    /// that is Codable itself), or why it cannot (docs/prepare.md "Instance methods"). An
    /// initializer's thunk only reads the new `self` back; a mutating method's does both.
    private func receiver(of function: FunctionCandidate, in file: String, analysis: TargetAnalysis, planner: inout ValueMirrorPlanner) -> (ReceiverCoding?, String?) {
        let owner = function.ownerPath.joined(separator: ".")
        // `isResult` of the checks: false, `self` is encoded; true, it is decoded.
        let directions = (function.isInitializer ? [] : [false]) + (function.isMutating || function.isInitializer || function.routesSetter ? [true] : [])
        guard let type = analysis.declaredTypes[owner], let typeFile = analysis.typeFiles[owner] else {
            return (nil, "an instance method of `\(owner)`, which target \(analysis.target.name) does not declare: the thunk sends `self` as a copy of the stored properties of the type's declaration, which prepare cannot see")
        }
        switch type.kind {
        case .actorType:
            return (nil, "instance methods of an actor are not routed: its state is isolated to the actor, and a copy sent to the module could not be written back without crossing that isolation")
        case .classType:
            if function.isInitializer {
                return (nil, "initializers of a class are not routed: a replacement would have to repeat the class's rules for designated and convenience initializers, and its stored `let`s cannot be assigned twice")
            }
            return objectReceiver(of: function, type: type, typeFile: typeFile, in: file, analysis: analysis)
        case .enumType:
            // Sent as it is: its own conformance must encode it (and decode the new value of a mutating method).
            let references = directions.map { CodableReference(path: function.ownerPath, isResult: $0, writtenIn: owner) }
            guard codableIndex.unsupportedReason(references, scope: []) != nil else { return (.value(type: owner), nil) }
            // Not Codable: its value mirror.
            switch planner.coding(of: owner, scope: [], directions: Set(directions)) {
            case let .success(coding): return (.mirroredValue(coding), nil)
            case let .failure(refusal): return (nil, "the receiver (`self`): \(refusal.reason)")
            }
        case .structType:
            // A method of a struct with property wrappers (a view's `@State`, `@Environment`,
            // `@ObservedObject`…) that only reads `self` (not mutating, not an initializer or setter)
            // gets a copy of the stored properties that travel: `build` refuses a body touching one
            // left out, as for a class (docs/prepare.md "Views' helpers").
            let copiesPart = directions == [false] && type.storedProperties.hasPropertyWrapper
            if let reason = type.storedProperties.unsupportedReason, !copiesPart {
                return (nil, "the receiver (`self`) cannot travel to the module: `\(owner)` (\(typeFile):\(type.line)): \(reason)")
            }
            var properties: [StoredProperty] = []
            for var property in type.storedProperties.properties {
                // A mutating method's new `self` comes back: the mirror is decoded too.
                if !travels(property, scope: function.ownerPath, directions: directions) {
                    // Not Codable: the field carries its value mirror.
                    switch planner.coding(of: property.type, scope: function.ownerPath, directions: Set(directions)) {
                    case let .success(coding): property.coding = coding
                    case let .failure(refusal):
                        guard copiesPart else {
                            return (nil, "the receiver's stored property `\(property.name)` (\(typeFile):\(property.line)): \(refusal.reason)")
                        }
                        continue
                    }
                }
                if property.isFileScoped && typeFile != file {
                    return (nil, "the receiver's stored property `\(property.name)` is private to \(typeFile):\(property.line), which the thunk must read; declare the method in that file")
                }
                properties.append(property)
            }
            return (.mirror(properties), nil)
        }
    }

    /// A class's receiver: a mirror of the stored properties that can travel (docs/prepare.md "Class
    /// methods"). Those that cannot are left out rather than refusing the method — `build` refuses a
    /// changed body that touches one. What the module copies must be all that `self` holds and all
    /// that its calls to other methods of `self` run: no superclass of the project (its stored
    /// properties are not in the mirror), and no override of those methods (the module runs the
    /// class's own), so the class is `final`, or not `open` and no class of the target subclasses it.
    private func objectReceiver(of function: FunctionCandidate, type: DeclaredType, typeFile: String, in file: String, analysis: TargetAnalysis) -> (ReceiverCoding?, String?) {
        let owner = function.ownerPath.joined(separator: ".")
        if let problem = Self.copyProblem(ofClass: type, typeFile: typeFile, analysis: analysis) {
            return (nil, "the receiver's class " + problem.reason + (problem.isFixedByFinal ? "; mark `\(owner)` `final` or the method `// @native`" : ""))
        }
        // Refused as for a struct rather than left out: `build`'s copy of the class cannot tell
        // which file the thunk reads it from.
        if let property = type.storedProperties.properties.first(where: { $0.isFileScoped && typeFile != file }) {
            return (nil, "the receiver's stored property `\(property.name)` is private to \(typeFile):\(property.line), which the thunk must read; declare the method in that file")
        }
        let properties = type.storedProperties.properties.compactMap { property in
            travels(property, scope: function.ownerPath) ? property : referencedObject(property, scope: function.ownerPath, analysis: analysis)
        }
        return (.object(properties), nil)
    }

    /// Why a class cannot be copied into the module as `typeFile`'s declaration of it has it (nil when
    /// it can), starting with its name: what the module copies must be all that the object holds and
    /// all that its calls to its methods run, so no superclass of the project (its stored properties
    /// are not in the mirror) and no override of those methods (the module runs the class's own).
    private static func copyProblem(ofClass type: DeclaredType, typeFile: String, analysis: TargetAnalysis) -> ClassCopyProblem? {
        let name = type.path.joined(separator: ".")
        if let superclass = type.inheritedTypes.first, let declared = analysis.declaredTypes[superclass], declared.kind == .classType {
            return ClassCopyProblem(reason: "`\(name)` (\(typeFile):\(type.line)) inherits from `\(superclass)`, whose stored properties a mirror of it would not carry",
                                    isFixedByFinal: false)
        }
        guard !type.isFinal else { return nil }
        if type.isOpen {
            return ClassCopyProblem(reason: "`\(name)` (\(typeFile):\(type.line)) is `open`: a subclass in another module could override the methods the module runs as `\(name)` declares them",
                                    isFixedByFinal: false)
        }
        if let subclass = analysis.declaredTypes.values.first(where: { $0.kind == .classType && $0.inheritedTypes.first == name }) {
            return ClassCopyProblem(reason: "`\(name)` (\(typeFile):\(type.line)) has the subclass `\(subclass.path.joined(separator: "."))` (\(analysis.typeFiles[subclass.path.joined(separator: ".")] ?? "?"):\(subclass.line)), whose overrides the module would not run",
                                    isFixedByFinal: true)
        }
        return nil
    }

    /// Why a class cannot be copied, and whether marking it `final` is the fix to suggest.
    private struct ClassCopyProblem {
        let reason: String
        let isFixedByFinal: Bool
    }

    /// A stored property a mirror carries as it is: its type is Codable in `directions` (sent, and for
    /// `true` decoded back; an object's both ways, as a mutating method's receiver).
    private func travels(_ property: StoredProperty, scope: [String], directions: [Bool] = [false, true]) -> Bool {
        let references = directions.flatMap { isResult in
            property.codableReferences.map { reference in
                var checked = reference
                checked.isResult = isResult
                return checked
            }
        }
        return codableIndex.unsupportedReason(references, scope: scope) == nil
    }

    /// A receiver's optional reference to another object of the target (`var species: BirdSpecies?`,
    /// a SwiftData to-one relationship), carried as a copy of that object's own stored properties that
    /// travel — one level deep: its references and collections of objects stay behind, so a cycle
    /// (Bird → BirdSpecies → Bird) never reaches the mirror. An object with a `private` one that would
    /// travel is not copied: the thunk's file cannot read it, and the guest's copy would lack it. `build` refuses a body that writes to the copy (docs/prepare.md "Objects
    /// the receiver references"). Nil when it cannot travel: the mirror leaves the property out.
    private func referencedObject(_ property: StoredProperty, scope: [String], analysis: TargetAnalysis) -> StoredProperty? {
        guard property.type.hasSuffix("?"), case let .success(object)? = objectCopy(ofClassNamed: String(property.type.dropLast()), scope: scope, analysis: analysis) else { return nil }
        var carried = property
        carried.object = object
        return carried
    }

    /// The copy of an object of class `written` (as `scope` resolves the name: nested first, then the
    /// top level) that the module receives, one level deep — its stored properties that travel, not its
    /// references. Nil when `written` is not a class of the target; why not when the class cannot be
    /// copied: generic, `@MainActor` (the copy's initializer is not isolated to it), one whose copy
    /// would not be all it holds or runs (`copyProblem`), or one with a `private` stored property that
    /// travels (the thunk's file cannot read it).
    private func objectCopy(ofClassNamed written: String, scope: [String], analysis: TargetAnalysis) -> Result<ReferencedObject, ValueMirrorPlanner.Refusal>? {
        let candidates = (0...scope.count).reversed().map { (scope.prefix($0) + [written]).joined(separator: ".") }
        guard let name = candidates.first(where: { analysis.declaredTypes[$0] != nil }), let type = analysis.declaredTypes[name],
              type.kind == .classType, let typeFile = analysis.typeFiles[name] else { return nil }
        func refuse(_ why: String) -> Result<ReferencedObject, ValueMirrorPlanner.Refusal> {
            .failure(.init(reason: "an object of class `\(name)` travels only as a copy, and this one cannot be copied: \(why)"))
        }
        if type.isGeneric { return refuse("`\(name)` (\(typeFile):\(type.line)) is generic") }
        if type.isMainActor {
            return refuse("`\(name)` (\(typeFile):\(type.line)) is `@MainActor`, and the copy's initializer, which reads its properties, is not isolated to the main actor")
        }
        if let problem = Self.copyProblem(ofClass: type, typeFile: typeFile, analysis: analysis) { return refuse(problem.reason) }
        let copied = type.storedProperties.properties.filter { travels($0, scope: type.path) }
        if let hidden = copied.first(where: \.isFileScoped) {
            return refuse("its stored property `\(hidden.name)` (\(typeFile):\(hidden.line)) is `private` to its file, which the thunk cannot read")
        }
        return .success(ReferencedObject(className: name, properties: copied))
    }

    /// How a parameter of class type `written` (`Bird` or `Bird?`, a class of the target) travels: as
    /// a read-only copy of the object, the one a receiver's reference to it carries (`objectCopy`;
    /// docs/prepare.md "Objects as parameters"). `build` refuses a body that writes to the copy. Nil
    /// for any other type, which travels as a value or not at all (`ValueMirrorPlanner`).
    private func objectCopyCoding(of written: String, scope: [String], analysis: TargetAnalysis, planner: inout ValueMirrorPlanner) -> Result<ValueCoding, ValueMirrorPlanner.Refusal>? {
        guard var type = ValueMirrorPlanner.parseType(written) else { return nil }
        var isOptional = false
        if let optional = type.as(OptionalTypeSyntax.self) {
            (type, isOptional) = (optional.wrappedType, true)
        }
        guard let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil,
              let copy = objectCopy(ofClassNamed: identifier.name.text, scope: scope, analysis: analysis) else { return nil }
        return copy.map { object in
            let coding = ValueCoding.mirror(type: object.className, mirror: planner.objectCopy(object))
            return isOptional ? .optional(coding) : coding
        }
    }

    /// The host values each view reads and its slots (`ViewTokenAnalysis`). Only the files that name a host wrapper,
    /// an observable or `@Model` class, a closure type, `EnvironmentValues` (the app's own keys), a native-only view or a
    /// view of a file declaring a wrapper SwiftUI fills are parsed again for it (the scans keep no syntax): a project without
    /// any pays one byte search per file. A view whose reads cannot all be tokens is routed without
    /// any; `build` reports why it does not lower.
    mutating func resolveViewTokens(_ analyses: [TargetAnalysis]) {
        // `@Model` classes (SwiftData) are host objects; `-> Void` finds closure properties, whose callers' slots pass them.
        let markers = ViewTokenAnalysis.hostWrappers.map { Array("@\($0)".utf8) }
            + ["@Observable", "ObservableObject", "EnvironmentValues", "@Model", "-> Void", "-> ()"].map { Array($0.utf8) }
            + ViewTokenAnalysis.nativeOnlyViews.map { Array($0.utf8) } + ViewTokenAnalysis.nativeOnlyModifiers.map { Array(".\($0)(".utf8) }
        // Model classes are often declared in another target (a package of the app's data): `build`
        // sees every target's sources, so the views of each target are analysed with them too, or
        // prepare and build would disagree on which reads are host reads (and on the slots).
        let classMarkers = ["@Model", "ObservableObject", "@Observable"].map { Array($0.utf8) }
        var modelFiles: [(path: String, text: String)] = []
        for file in analyses.flatMap(\.files) where !modelFiles.contains(where: { $0.path == file.path })
            && classMarkers.contains(where: { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil }) {
            modelFiles.append((file.path, String(decoding: file.userBytes, as: UTF8.self)))
        }
        // A file naming one of those classes holds views with host properties (`let trip: Trip`).
        let classNames = Set(modelFiles.flatMap { file in
            file.text.components(separatedBy: "class ").dropFirst().map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) }
        }.filter { !$0.isEmpty }).map { Array($0.utf8) }
        // A read of a Codable value is passed as JSON (`model.items` of `[Item]`) when the declarations
        // of its types say it can be: the files stating a Codable conformance are read too, wherever
        // they are, as `build` reads them.
        let codableMarkers = ["Codable", "Encodable"].map { Array($0.utf8) }
        var valueFiles: [(path: String, text: String)] = []
        var valuePaths = Set(modelFiles.map(\.path))
        for file in analyses.flatMap(\.files) where codableMarkers.contains(where: { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil })
            && valuePaths.insert(file.path).inserted {
            valueFiles.append((file.path, String(decoding: file.userBytes, as: UTF8.self)))
        }
        // A view declaring a wrapper SwiftUI fills natively (`ViewTokenAnalysis.nativeChildWrappers`) is a
        // slot where another view uses it: the files naming a view of such a file are read, with the
        // files declaring them (from any target: a package's view used by the app's).
        let childMarkers = ViewTokenAnalysis.nativeChildWrappers.map { Array("@\($0)".utf8) }
        var nativeChildNames: Set<[UInt8]> = []
        var nativeChildFiles: [(path: String, text: String)] = []
        for analysis in analyses {
            for file in analysis.files where childMarkers.contains(where: { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil }) {
                let names = analysis.viewTypes.filter { analysis.typeFiles[$0] == file.path }.compactMap { $0.split(separator: ".").last }
                guard !names.isEmpty else { continue }
                nativeChildNames.formUnion(names.map { Array($0.utf8) })
                if valuePaths.insert(file.path).inserted { nativeChildFiles.append((file.path, String(decoding: file.userBytes, as: UTF8.self))) }
            }
        }
        // The app's extension members that apply a native-only modifier (`extension Image { func
        // style(appStyle:) … self.resizable() … }`) make the statements calling them slots: the files
        // declaring them are read with every target's views, and the files calling them too.
        let (extensionFiles, extensionMarkers) = nativeExtensionFiles(analyses.flatMap(\.files), excluding: valuePaths)
        // The app's named colors (`extension Color { static var acText: Color … }`, often in a package
        // of the app's design) are color tokens where a view reads them: the files declaring them are
        // read with every target's views, and the files naming one (`.acText`) too.
        let (colorFiles, colorMarkers) = designColorFiles(analyses.flatMap(\.files), excluding: valuePaths.union(extensionFiles.map(\.path)))
        for analysis in analyses where !analysis.viewTypes.isEmpty {
            // A representable of the project may be used in any file of the target: all are parsed then.
            let representable = Array("Representable".utf8)
            let hasRepresentable = analysis.files.contains { GeneratedSection.firstRange(of: representable, in: $0.userBytes) != nil }
            let sources = hasRepresentable ? analysis.files : analysis.files.filter { file in
                (markers + classNames + nativeChildNames + extensionMarkers + colorMarkers).contains { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil }
            }
            guard !sources.isEmpty else { continue }
            let own = Set(sources.map(\.path))
            // The target's own files first: a view's name finds the target's own declaration.
            let texts = sources.map { ($0.path, String(decoding: $0.userBytes, as: UTF8.self)) }
                + (modelFiles + valueFiles + nativeChildFiles + extensionFiles + colorFiles).filter { !own.contains($0.path) }.map { ($0.path, $0.text) }
            // A view only another platform's build compiles (`#if os(macOS)`) is analysed as that
            // build reads it: its thunk exists only there.
            var remaining = analysis.viewTypes.sorted()
            for platform in platforms where !remaining.isEmpty {
                let index = GuestSourceIndex(sources: texts, platform: platform)
                let tokenAnalysis = ViewTokenAnalysis(index: index)
                remaining = remaining.filter { owner in
                    guard let type = index.lookupType(path: owner.split(separator: ".").map(String.init)),
                          own.contains(index.files[index.types[type].file].relativePath) else { return true }
                    guard case .success(let table) = tokenAnalysis.analyze(type: type), !table.tokens.isEmpty else { return false }
                    let id = "\(analysis.target.name):\(owner).body"
                    viewTokens[id] = table.tokens
                    if table.needsViewFileScope { fileScopedTokenReads.insert(id) }
                    return false
                }
            }
        }
    }

    /// The slots of generic views whose parameters are the views the parent passes
    /// (`ViewGenericContent`): each property holding one (`content: Content`, `label: () -> Label`)
    /// is passed by the thunk as a slot, with the view's other tokens. Only the files declaring a
    /// generic view, and those of its target extending it (a conditional `extension Box: View where
    /// Value: View` makes `Value` a view), are parsed again.
    mutating func resolveGenericViewContent(_ analyses: [TargetAnalysis]) {
        for analysis in analyses {
            for owner in analysis.viewTypes.sorted() where analysis.declaredTypes[owner]?.isGeneric == true {
                guard let filePath = analysis.typeFiles[owner], let file = analysis.files.first(where: { $0.path == filePath }) else { continue }
                let path = owner.split(separator: ".").map(String.init)
                let extending = Array("extension \(path.last ?? owner)".utf8)
                let sources = [file] + analysis.files.filter { $0.path != file.path && GeneratedSection.firstRange(of: extending, in: $0.userBytes) != nil }
                for platform in platforms {
                    let index = GuestSourceIndex(sources: sources.map { ($0.path, String(decoding: $0.userBytes, as: UTF8.self)) }, platform: platform)
                    guard let type = index.lookupType(path: path) else { continue }
                    // A view generic over something else stays native: `build` says why.
                    if case .success(let content?) = ViewGenericContent.of(type, in: index), !content.properties.isEmpty {
                        let id = "\(analysis.target.name):\(owner).body"
                        let slots = content.properties.map(\.slot)
                        viewTokens[id] = Array(Set((viewTokens[id] ?? []) + slots)).sorted { $0.id < $1.id }
                        if content.properties.contains(where: \.isFileScoped) { fileScopedTokenReads.insert(id) }
                    }
                    break
                }
            }
        }
    }

    /// The files (of any target, but those in `excluding`, which are read already) declaring an
    /// extension member that applies a native-only modifier (`ViewNativeExtensions`) or an overload
    /// of its name (ACHNBrowserUI's `Text.style(appStyle:)` beside `Image.style(appStyle:)`, which
    /// `build`, reading every file, tells apart), and the markers of calls to those members
    /// (`.style(`). A file is a candidate when it writes `extension` and names a native-only
    /// modifier or a member found so far followed by `(` (`resizable(` without the dot too: inside
    /// `extension Image` it needs no `self.`; `func style(` too); candidates are parsed until no new
    /// name is found.
    private func nativeExtensionFiles(_ files: [ParsedFile], excluding: Set<String>) -> (files: [(path: String, text: String)], markers: [[UInt8]]) {
        let extensionMarker = Array("extension".utf8)
        let extensionSources = files.filter { GeneratedSection.firstRange(of: extensionMarker, in: $0.userBytes) != nil }
        guard !extensionSources.isEmpty else { return ([], []) }
        var names = ViewTokenAnalysis.nativeOnlyModifiers
        var chosen: [(path: String, text: String)] = []
        var chosenPaths: Set<String> = []
        var found: Set<String> = []
        var extensions: ViewNativeExtensions
        while true {
            let calls = names.map { Array("\($0)(".utf8) }
            for file in extensionSources where !chosenPaths.contains(file.path)
                && calls.contains(where: { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil }) {
                chosen.append((file.path, String(decoding: file.userBytes, as: UTF8.self)))
                chosenPaths.insert(file.path)
            }
            extensions = ViewNativeExtensions(index: GuestSourceIndex(sources: chosen.map { ($0.path, $0.text) }))
            guard !extensions.nativeNames.isSubset(of: found) else { break }
            found.formUnion(extensions.nativeNames)
            names.formUnion(extensions.nativeNames)
        }
        let declaring = extensions.declaringFiles
        return (chosen.filter { declaring.contains($0.path) && !excluding.contains($0.path) }, found.sorted().map { Array(".\($0)(".utf8) })
    }

    /// The files (of any target, but those in `excluding`, which are read already) declaring the app's
    /// named colors (`ViewDesignColors`) or extension members reading them (`Text.style(appStyle:)`), and
    /// the markers of the files using them (`.acText`, `.style(`). A color's declaration writes
    /// `extension Color`, `extension SwiftUI.Color` or `extension ShapeStyle`; a member reading one
    /// writes `extension` and the color's marker.
    private func designColorFiles(_ files: [ParsedFile], excluding: Set<String>) -> (files: [(path: String, text: String)], markers: [[UInt8]]) {
        /// The files naming one of `markers`, and `required` when given, each once.
        func containing(_ markers: [[UInt8]], and required: [UInt8]? = nil) -> [(path: String, text: String)] {
            var seen: Set<String> = []
            return files.filter { file in
                seen.insert(file.path).inserted && markers.contains { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil }
                    && required.map { GeneratedSection.firstRange(of: $0, in: file.userBytes) != nil } ?? true
            }.map { ($0.path, String(decoding: $0.userBytes, as: UTF8.self)) }
        }
        let declarations = containing(["extension Color", "extension SwiftUI.Color", "extension ShapeStyle"].map { Array($0.utf8) })
        guard !declarations.isEmpty else { return ([], []) }
        let names = ViewDesignColors(index: GuestSourceIndex(sources: declarations)).names
        guard !names.isEmpty else { return ([], []) }
        let colorMarkers = names.sorted().map { Array(".\($0)".utf8) }
        let readers = containing(colorMarkers, and: Array("extension".utf8))
        let candidates = declarations + readers.filter { reader in !declarations.contains { $0.path == reader.path } }
        let colors = ViewDesignColors(index: GuestSourceIndex(sources: candidates))
        let chosen = colors.declaringFiles.union(colors.extensionFiles).subtracting(excluding)
        return (candidates.filter { chosen.contains($0.path) }, colorMarkers + colors.extensionReads.keys.sorted().map { Array(".\($0)(".utf8) })
    }

    /// Names are given and checked across all targets: every product of the project receives the
    /// same modules, whose manifest is one namespace (`PatchNames.viewTypeNames`).
    mutating func resolveNames(_ analyses: [TargetAnalysis]) {
        var viewClaims: [PatchNames.ViewClaim] = []
        var functionClaims: [(name: String, claimant: String)] = []
        let planner = self
        for analysis in analyses {
            let target = analysis.target.name
            for file in analysis.files {
                for body in file.scan.bodies where analysis.routes(body) {
                    viewClaims.append(.init(view: .init(target: target, path: body.ownerPath), location: "\(file.path):\(body.line)"))
                }
            }
            // Exports are made per file on every core (sanitizing thousands of names adds up). Only
            // functions that get a thunk claim one (under `routing: all` most candidates are skipped),
            // and a file several targets compile declares each of its functions once.
            functionClaims += ConcurrentMap.map(analysis.files) { file in
                file.scan.functions.filter { $0.unsupportedReason == nil && planner.routing.selects($0, inFile: file.path) }.map { function in
                    (function.export, "\(file.path):\(function.line): \(function.key)")
                }
            }.joined()
        }
        viewNames = PatchNames.viewTypeNames(viewClaims)
        let functionCollisions = PatchNames.collisions(in: functionClaims)
        collidingFunctionExports = Set(functionCollisions.map(\.name))
        collisions = (viewNames.collisions + functionCollisions).sorted { $0.name < $1.name }
    }

    /// The innermost source root, of any target, holding `path` (a root may be a single file). Every
    /// target compiling the file has that root or one enclosing it, so all of them compile the routing
    /// file in its `Patch/` folder (a widget compiling `App/General` of an app compiling `App`).
    func innermostSourceRoot(of path: String) -> String {
        sourceRoots.filter { $0 == path || $0 == "." || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
            .max { ($0.count, $1) < ($1.count, $0) } ?? "."
    }

    /// Files are emitted independently, on every core, and folded in file order.
    mutating func emit(_ analysis: TargetAnalysis) -> TargetOutput {
        let planner = self
        let emissions = ConcurrentMap.map(analysis.files) { file in planner.emit(file, in: analysis) }
        var output = TargetOutput()
        for (file, emission) in zip(analysis.files, emissions) {
            if let update = emission.update {
                output.userFileUpdates.append(update)
                preparedHashes[update.path] = emission.cachedScan.hash
            }
            nextCache.insert(emission.cachedScan.scan, hash: emission.cachedScan.hash, encoded: emission.cachedScan.encoded)
            if !emission.insertions.isEmpty { insertions[file.path] = emission.insertions }
            if !emission.routingThunks.isEmpty {
                let key = RoutingKey(sourceRoot: innermostSourceRoot(of: file.path),
                                     compilingTargets: targets.filter { $0.compiles(file.path) }.map(\.name).sorted())
                if let index = output.routingFiles.firstIndex(where: { $0.key == key }) {
                    output.routingFiles[index].file.thunks += emission.routingThunks
                    output.routingFiles[index].file.imports.formUnion(emission.routingImports)
                } else {
                    output.routingFiles.append((key, (emission.routingImports, emission.routingThunks)))
                }
            }
            views += emission.views
            functions += emission.functions
            skipped += emission.skipped
        }
        return output
    }

    private func emit(_ file: ParsedFile, in analysis: TargetAnalysis) -> FileEmission {
        var output = FileEmission()
        let targetName = analysis.target.name
        var edits: [SourceEdit] = []
        var sectionThunks: [String] = []
        var sectionImports = Set<String>()
        for body in file.scan.bodies {
            let owner = body.ownerPath.joined(separator: ".")
            guard analysis.routes(body) else {
                if body.isPrepared { edits.append(SourceEdit(range: body.nameRange, replacement: "body")) }
                if body.modifierContent == nil, analysis.toolbarContentTypes.contains(owner) {
                    output.skipped.append(.init(file: file.path, line: body.line, declaration: "\(owner).body", reason: Preparer.toolbarContentReason))
                } else if analysis.isViewBody(body), analysis.isPreviewCode(body) {
                    output.skipped.append(.init(file: file.path, line: body.line, declaration: owner + (body.modifierContent == nil ? ".body" : ".body(content:)"),
                                                reason: Preparer.previewCode + ", so no thunk routes it"))
                } else if body.modifierContent == nil, let reason = analysis.launchBodyReasons[owner] {
                    // The baseline records such a `body` as a computed property: `build` finds the skip by its id.
                    output.skipped.append(.init(file: file.path, line: body.line, declaration: "\(owner).body", reason: reason,
                                                declarationID: "\(targetName):\(owner).body"))
                }
                continue
            }
            let view = PatchNames.ViewIdentity(target: targetName, path: body.ownerPath)
            let typeName = viewNames.typeName(of: view)
            let declaredType = analysis.declaredTypes[owner]
            var reason = body.unsupportedReason
            if reason == nil, typeName == nil {
                reason = "its patch name \"\(viewNames.names[view] ?? "")\" is also claimed by another view (see collisions); rename one of them"
            }
            if let reason {
                output.skipped.append(.init(file: file.path, line: body.line, declaration: owner + (body.modifierContent == nil ? ".body" : ".body(content:)"), reason: reason))
                // Undo an earlier run's rename: without the generated `body` the type would not compile.
                if body.isPrepared { edits.append(SourceEdit(range: body.nameRange, replacement: "body")) }
                continue
            }
            guard let typeName else { continue }
            if !body.isPrepared { edits.append(SourceEdit(range: body.nameRange, replacement: PreparedNames.nativeBody)) }
            var attributes = ""
            if body.viewBuilderRange == nil {
                attributes += "@ViewBuilder "
                output.insertions.viewBuilderOwners.append(owner)
            }
            if body.mainActorRange == nil {
                attributes += "@MainActor "
                output.insertions.mainActorOwners.append(owner)
            }
            if !attributes.isEmpty { edits.append(.insert(attributes, at: body.attributeInsertion)) }
            let typeContext = body.context.isInExtension ? declaredType : nil
            let tokens = viewTokens["\(targetName):\(owner).body"] ?? []
            let imports = ThunkEmitter.viewImports + (tokens.allSatisfy { $0.kind == .slot } ? [] : ThunkEmitter.tokenImports)
                + (tokens.contains { $0.kind == .json } ? ThunkEmitter.jsonTokenImports : [])
            let thunk = ThunkEmitter.view(.init(
                extendedType: owner, typeName: typeName,
                conditions: unique((typeContext?.context.conditions ?? []) + body.context.conditions),
                availability: unique((typeContext?.context.availability ?? []) + (typeContext?.availability ?? [])
                                     + body.context.availability + body.availability),
                whereClause: body.context.extensionWhereClause, accessModifiers: body.accessModifiers,
                contentHash: body.contentHash, modifierContent: body.modifierContent, tokens: tokens))
            if body.context.isFileScoped || declaredType?.isFileScoped == true || fileScopedTokenReads.contains("\(targetName):\(owner).body") {
                sectionThunks.append(thunk)
                sectionImports.formUnion(imports)
            } else {
                output.routingThunks.append(thunk)
                output.routingImports.formUnion(imports)
            }
            output.views.append(.init(target: targetName, typeName: typeName, declaredName: owner, file: file.path,
                                      line: body.line, contentHash: body.contentHash))
        }
        // A function an earlier run routed and this one does not (marked `// @native`, excluded, or
        // `routing` changed) loses the `dynamic` that run inserted: it is inlinable again; likewise a
        // `private` member an earlier run widened is `private` again.
        let earlierInsertions = previousInsertions[file.path] ?? PreparedInsertions()
        let widened = Set(earlierInsertions.widenedMembers)
        func unroute(_ function: FunctionCandidate) { edits += earlierInsertions.removalEdits(for: function) }
        // The types value mirrors may name: the target's and the public enums of the others (one merge per file).
        let mirrorableTypes = analysis.declaredTypes.merging(publicEnums) { own, _ in own }
        let mirrorableTypeFiles = analysis.typeFiles.merging(publicEnumFiles) { own, _ in own }
        for function in file.scan.functions {
            guard routing.selects(function, inFile: file.path) else {
                unroute(function)
                continue
            }
            let export = function.export
            var reason = targetUnsupportedReason(function, in: analysis)
            var receiver: ReceiverCoding?
            var planner = ValueMirrorPlanner(index: codableIndex, types: mirrorableTypes, typeFiles: mirrorableTypeFiles, file: file.path,
                                             conditions: (analysis.declaredTypes[function.ownerPath.joined(separator: ".")]?.context.conditions ?? []) + function.context.conditions)
            var values = ValueCodings()
            if reason == nil { (values, reason) = valueCodings(of: function, analysis: analysis, planner: &planner) }
            if reason == nil, !function.ownerPath.isEmpty, !function.isStatic {
                (receiver, reason) = self.receiver(of: function, in: file.path, analysis: analysis, planner: &planner)
                // The receiver's fields may use mirrors of their own.
                values = planner.codings(parameters: values.parameters, result: values.result)
            }
            // An async function's helper never names the function: nothing is widened for it.
            if reason == nil, !function.isAsync, function.privateKeyword != nil || (function.fileprivateKeyword != nil && widened.contains(function.key)) {
                reason = wideningReason(function, in: file.path, analysis: analysis)
            }
            if reason == nil, collidingFunctionExports.contains(export) {
                reason = "its export name \"\(export)\" is also claimed by another function; rename one of them"
            }
            if let reason {
                output.skipped.append(.init(file: file.path, line: function.line, declaration: function.key, reason: reason,
                                            declarationID: "\(targetName):\(function.localID)"))
                unroute(function)
                continue
            }
            if function.isAsync {
                // Routed by its prologue (`AsyncPrologue`), inserted once and rewritten when the
                // parameters it passes on changed.
                let statement = AsyncPrologue.statement(for: function, returning: function.prologueReturnInsertion != nil || function.prologue?.insertedReturn != nil)
                if let prologue = function.prologue {
                    if prologue.text != statement { edits.append(SourceEdit(range: prologue.range, replacement: statement)) }
                } else if let insertion = function.prologueInsertion {
                    edits.append(.insert(" " + statement, at: insertion))
                    // A single-expression body's implicit return no longer applies after the prologue.
                    if let returnInsertion = function.prologueReturnInsertion { edits.append(.insert(AsyncPrologue.insertedReturn, at: returnInsertion)) }
                }
            } else if !function.isDynamic {
                edits.append(.insert("dynamic ", at: function.dynamicInsertion))
                output.insertions.dynamicFunctions.append(function.key)
            }
            if !function.isAsync, let keyword = function.privateKeyword {
                edits.append(.insert(PrivateMemberWidening.insertion, at: keyword))
                output.insertions.widenedMembers.append(function.key)
            }
            let owner = function.ownerPath.joined(separator: ".")
            let declaredType = analysis.declaredTypes[owner]
            let typeContext = function.context.isInExtension ? declaredType : nil
            let thunkInput = ThunkEmitter.FunctionThunk(
                extendedType: function.ownerPath.isEmpty ? nil : owner, candidate: function,
                exportName: function.isAsync ? PatchNames.asyncStartExport(functionExport: export) : export,
                conditions: unique((typeContext?.context.conditions ?? []) + function.context.conditions),
                availability: unique((typeContext?.context.availability ?? []) + (typeContext?.availability ?? [])
                                     + function.context.availability + function.availability),
                receiver: receiver, values: values)
            let thunk = function.isAsync ? ThunkEmitter.asyncHelper(thunkInput) : ThunkEmitter.function(thunkInput)
            let imports = function.isAsync ? ThunkEmitter.asyncImports : ThunkEmitter.functionImports(receiver: receiver)
            if function.isAccessFileScoped || declaredType?.isFileScoped == true || receiver?.readsFileScopedProperty == true || values.readsFileScoped {
                sectionThunks.append(thunk)
                sectionImports.formUnion(imports)
            } else {
                output.routingThunks.append(thunk)
                // The replacement spells the function's parameter types: it needs the file's imports.
                output.routingImports.formUnion(file.scan.imports + imports)
            }
            output.functions.append(.init(target: targetName, declarationID: "\(targetName):\(function.localID)", key: function.key,
                                          export: thunkInput.exportName, file: file.path, line: function.line, sendsReceiver: receiver != nil))
        }
        var newUserBytes = SourceEdit.apply(edits, to: file.userBytes)
        if !sectionThunks.isEmpty {
            let imports = sectionImports.subtracting(file.scan.imports).sorted()
            newUserBytes += Array(ThunkEmitter.section(imports: imports, thunks: sectionThunks).utf8)
        }
        // The cache keeps the scan of each file as this run leaves it: what the next run reads.
        if newUserBytes != file.original {
            output.update = .init(path: file.path, before: file.original, after: newUserBytes)
            let hash = SHA256Hasher.hex(of: newUserBytes)
            let scan = file.scan.applying(edits)
            output.cachedScan = (hash, scan, cache.encodedScan(hash: hash, scan: scan))
        } else {
            output.cachedScan = (file.contentHash, file.scan, cache.encodedScan(hash: file.contentHash, scan: file.scan))
        }
        return output
    }

    /// The baseline of all scanned files, its canonical bytes, the build fingerprint, and the line of
    /// each declaration by id.
    static func baseline(of analyses: [TargetAnalysis], viewTokens: [String: [ViewToken]],
                         platforms: [AppPlatform], assets: [Baseline.Asset]) -> (Baseline, bytes: [UInt8], fingerprint: String, lines: [String: Int]) {
        var declarations: [Baseline.Declaration] = []
        var lines: [Int] = []
        for analysis in analyses {
            for file in analysis.files {
                for declaration in file.scan.declarations {
                    // A `body` of a type that is not a view (an `App`'s scene) is a plain computed
                    // property; a `body(content:)` of a type that is not a modifier, a plain method.
                    let owner = String(declaration.localID.dropLast(".body".count))
                    let isViewBody = declaration.kind == .viewBody
                        && (declaration.methodForm == nil ? analysis.viewTypes : analysis.modifierTypes).contains(owner)
                    let (localID, kind, contentHash, behaviour): (String, Baseline.Declaration.Kind, String, Baseline.Behaviour) =
                        if declaration.kind != .viewBody || isViewBody {
                            (declaration.localID, declaration.kind, declaration.contentHash, declaration.behaviour)
                        } else if let method = declaration.methodForm { (method.localID, .method, method.contentHash, method.behaviour) }
                        else { (declaration.localID, .computedProperty, declaration.contentHash, declaration.behaviour) }
                    let id = "\(analysis.target.name):\(localID)"
                    declarations.append(Baseline.Declaration(
                        id: id, kind: kind, contentHash: contentHash, file: file.path,
                        tokens: isViewBody ? (viewTokens[id] ?? []).map(\.record) : [], behaviour: behaviour))
                    lines.append(declaration.line)
                }
            }
        }
        let disambiguated = disambiguated(declarations)
        let baseline = Baseline(declarations: disambiguated, platforms: platforms, assets: assets)
        let bytes = baseline.canonicalJSON
        return (baseline, bytes, BuildFingerprint.compute(canonicalBaseline: bytes, platform: baseline.platforms[0]),
                Dictionary(zip(disambiguated.map(\.id), lines), uniquingKeysWith: { first, _ in first }))
    }

    /// The same declaration under several `#if` clauses gets `#2`, `#3`… in source order.
    static func disambiguated(_ declarations: [Baseline.Declaration]) -> [Baseline.Declaration] {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(declarations.count)
        return declarations.map { declaration in
            var copy = declaration
            let count = (seen[declaration.id] ?? 0) + 1
            seen[declaration.id] = count
            if count > 1 { copy.id += "#\(count)" }
            return copy
        }
    }

    private func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}

/// How long parsing took on the clock on the wall when files parse on several cores at once.
enum ParseTime {
    /// The length of the union of `intervals`: time during which at least one of them ran.
    static func wallClock<Instant: InstantProtocol>(_ intervals: [Range<Instant>]) -> Instant.Duration {
        var total = Instant.Duration.zero
        var current: Range<Instant>?
        for interval in intervals.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let running = current, interval.lowerBound <= running.upperBound {
                current = running.lowerBound..<max(running.upperBound, interval.upperBound)
            } else {
                if let running = current { total += running.lowerBound.duration(to: running.upperBound) }
                current = interval
            }
        }
        if let running = current { total += running.lowerBound.duration(to: running.upperBound) }
        return total
    }
}
