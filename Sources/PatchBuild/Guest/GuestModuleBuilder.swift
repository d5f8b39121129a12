import Foundation
import PatchManifest

/// What `patchcli build` asks of the guest pipeline.
public struct GuestBuildRequest: Sendable {
    /// Directory of the project's Swift sources.
    public var sourcesDirectory: String
    /// The folders (or single files) inside `sourcesDirectory` to read, in lookup order: a project's
    /// targets and packages. Empty reads all of `sourcesDirectory`.
    public var sourceFolders: [String]
    /// The module names of the project's targets: the guest is one module, so a type written with
    /// its module (`Backend.Category`) is read without it (`GuestSourceIndex.withoutModuleQualifiers`).
    public var moduleNames: [String]
    /// Declaration ids to export, e.g. `PriceCalculator.total(items:discount:)`.
    public var exports: [String]
    /// Changed view bodies to lower onto the guest view DSL.
    public var views: [GuestViewRequest]
    public var outputDirectory: String
    public var toolchain: Toolchain
    /// templates/ of the patchcli checkout; found automatically when nil (`GuestTemplates.locate`).
    public var templatesDirectory: String?
    /// The `BuildFingerprint` of the baseline the module patches, recorded in the manifest.
    public var baselineFingerprint: String?
    /// Where the compiled guest libraries are kept between builds (`GuestLibrary`); nil keeps nothing.
    public var cacheDirectory: String?
    /// The platform whose device build the module patches: the `#if` branches its sources are read with.
    public var platform: AppPlatform

    public init(sourcesDirectory: String, sourceFolders: [String] = [], moduleNames: [String] = [], exports: [String], views: [GuestViewRequest] = [], outputDirectory: String,
                toolchain: Toolchain, templatesDirectory: String? = nil, baselineFingerprint: String? = nil,
                cacheDirectory: String? = GuestLibrary.defaultCacheDirectory, platform: AppPlatform = .iOS) {
        self.sourcesDirectory = sourcesDirectory
        self.sourceFolders = sourceFolders
        self.moduleNames = moduleNames
        self.exports = exports
        self.views = views
        self.outputDirectory = outputDirectory
        self.toolchain = toolchain
        self.templatesDirectory = templatesDirectory
        self.baselineFingerprint = baselineFingerprint
        self.cacheDirectory = cacheDirectory
        self.platform = platform
    }
}

/// manifest.json: what the module exports and how to call it. Written with sorted keys and no
/// paths of the machine that built it, so identical input gives identical bytes.
public struct GuestManifest: Sendable, Codable, Equatable {
    public struct ModuleInfo: Sendable, Codable, Equatable {
        public var file: String
        public var size: Int
        public var sha256: String
    }
    public struct ScalarExport: Sendable, Codable, Equatable {
        public var symbol: String
        /// e.g. `(i64,i64)->i64`; Int travels as i64 and traps in the guest outside Int32's range.
        public var wasmSignature: String

        public init(symbol: String, wasmSignature: String) {
            self.symbol = symbol
            self.wasmSignature = wasmSignature
        }
    }
    public struct Export: Sendable, Codable, Equatable {
        public var declarationID: String
        /// The packed-JSON export `(i32 ptr, i32 len) -> i64`.
        public var symbol: String
        public var signature: String
        /// The patched declaration's content hash, computed as the baseline computes it (`ContentHash`:
        /// tokens only), so it equals the baseline's hash once the change ships in an app release.
        public var contentHash: String
        public var location: GuestSourceLocation
        public var scalar: ScalarExport?

        /// manifest.json spells every key in lower camel case (`declarationId`, as in `unpatchable[]`).
        enum CodingKeys: String, CodingKey {
            case declarationID = "declarationId", symbol, signature, contentHash, location, scalar
        }
    }
    /// A lowered view body: the exports of its `patch_view_manifest` entry (sdk-contract §5.3).
    public struct ViewExport: Sendable, Codable, Equatable {
        public var declarationID: String
        public var type: String
        public var export: String
        public var dispatch: String?
        public var contentHash: String
        public var location: GuestSourceLocation

        enum CodingKeys: String, CodingKey {
            case declarationID = "declarationId", type, export, dispatch, contentHash, location
        }
    }
    /// Version of the function-patching call convention the glue implements.
    public static let currentABIVersion = 1

    public var abiVersion: Int
    /// The native build this module patches (absent for a build from --export without a baseline).
    public var baselineFingerprint: String?
    public var moduleName: String
    public var module: ModuleInfo
    /// module.wasm's SHA-256 again, at the top level where `patchcli run` checks it.
    public var sha256: String
    public var symbols: String
    public var exports: [Export]
    /// The view bodies the module renders (absent when it lowers none).
    public var views: [ViewExport]?
    public var unpatchable: [GuestUnpatchable]
    public var probes: [GuestProbe]
}

public struct GuestBuildResult: Sendable {
    public var manifest: GuestManifest
    /// Paths written, relative to the output directory.
    public var files: [String]
}

/// Locates templates/guest (Prelude.swift, support.c, PatchGuestSupport.h).
public enum GuestTemplates {
    /// What a build copies next to the program it compiles (the prelude, the Foundation layer and the
    /// view DSL are compiled apart: `GuestLibrary`).
    static let programFiles = ["support.c", "PatchGuestSupport.h"]
    static let requiredFiles = programFiles + ["Prelude.swift", foundationCore, viewDSLCore]
    /// The core of the guest Foundation layer (docs/guest-foundation.md), compiled with its parts
    /// (`foundationFiles`) into both guest libraries (`GuestLibrary`).
    static let foundationCore = "Foundation.swift"
    /// The core of the SwiftUI-shaped DSL view bodies compile against; only modules that lower views
    /// link it, with the rest of the DSL (`viewDSLFiles`), as the `GuestLibrary.viewDSL` library.
    static let viewDSLCore = "ViewDSL.swift"

    /// Every file of the view DSL in `directory`: `ViewDSL.swift` and its `ViewDSL+<Part>.swift`
    /// parts, sorted so the compiler sees them in one order on every machine. A new part of the DSL
    /// is a new file; no list names them.
    package static func viewDSLFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0 == viewDSLCore || ($0.hasPrefix("ViewDSL+") && $0.hasSuffix(".swift")) }.sorted()
    }

    /// Every file of the guest Foundation layer in `directory`: `Foundation.swift` and its
    /// `Foundation+<Part>.swift` parts, sorted like `viewDSLFiles` (a new part is a new file).
    package static func foundationFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0 == foundationCore || ($0.hasPrefix("Foundation+") && $0.hasSuffix(".swift")) }.sorted()
    }

    /// What the view DSL's library (`GuestLibrary.viewDSL`) compiles besides Prelude.swift: the Foundation
    /// layer, whose types the DSL uses (Date), then the DSL.
    package static func viewDSLLibraryFiles(in directory: String) -> [String] {
        foundationFiles(in: directory) + viewDSLFiles(in: directory)
    }

    /// `explicit`, else `$PATCHCLI_TEMPLATES`, else the running executable's installation
    /// (`<prefix>/share/patchcli/templates`, or the checkout it was built in); see `Installation`.
    public static func locate(
        explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(GuestBuildError) -> String {
        try locate(explicit: explicit, environment: environment, installation: .current)
    }

    package static func locate(explicit: String?, environment: [String: String], installation: Installation) throws(GuestBuildError) -> String {
        var candidates: [String] = []
        if let explicit { candidates.append(explicit) }
        if let variable = environment["PATCHCLI_TEMPLATES"], !variable.isEmpty { candidates.append(variable) }
        else if let installed = installation.templatesDirectory { candidates.append(installed) }
        for candidate in candidates where holdsTemplates(candidate) {
            return (candidate as NSString).appendingPathComponent("guest")
        }
        throw .templatesMissing(searched: candidates, executable: installation.executable)
    }

    /// Whether `directory/guest` holds every template file.
    static func holdsTemplates(_ directory: String) -> Bool {
        let guest = (directory as NSString).appendingPathComponent("guest")
        return requiredFiles.allSatisfy { FileManager.default.fileExists(atPath: (guest as NSString).appendingPathComponent($0)) }
    }
}

/// Declarations in, one small deterministic wasm module out.
public enum GuestModuleBuilder {
    /// Fixed between builds: both names are written into symbol names, and changing them inflates
    /// binary diffs between a baseline and a patch (measured 2.4x).
    public static let moduleName = "PatchGuest"

    /// The exports of the async pump contract (sdk-contract §4) a module with async functions has
    /// besides their kickoffs; `patch_pump` and `patch_done` make the SDK's `supportsAsyncPump` true.
    static let asyncPumpExports = ["patch_init", "patch_pump", "patch_pending", "patch_done", PatchNames.asyncResultExport,
                                   "patch_resolve", "patch_resolve_http"]
    /// Every file a build writes into its output directory.
    public static let outputFiles = ["module.wasm", "module.unstripped.wasm", "symbols.json", "manifest.json", GuestProgram.fileName]
    static let maximumAttempts = 4

    public static func build(_ request: GuestBuildRequest) throws(GuestBuildError) -> GuestBuildResult {
        var names: [GuestExportName] = []
        for text in request.exports {
            guard let name = GuestExportName(declarationID: text) else { throw .invalidDeclarationID(text) }
            if !names.contains(name) { names.append(name) }
        }
        let templates = try GuestTemplates.locate(explicit: request.templatesDirectory)
        // Views read their host values (`@Environment`, observed models) from the thunk's tokens.
        let tokenised = ViewTokenRewrite.apply(to: try GuestSourceIndex.load(root: request.sourcesDirectory, folders: request.sourceFolders, platform: request.platform,
                                                                                       modules: Set(request.moduleNames)),
                                               views: request.views)
        let index = tokenised.index
        let generator = GuestSourceGenerator(index: index)
        let work = try WorkDirectory()
        defer { work.remove() }
        try work.copyTemplates(from: templates)
        var commands = GuestCommands(toolchain: request.toolchain, workDirectory: work.path)

        var excluded = tokenised.unpatchable
        var dropped: Set<GuestUnit> = []
        var program = generator.generate(exports: names, views: tokenised.views, excluded: excluded)
        var attempt = 0
        while true {
            guard !program.exports.isEmpty || !program.views.isEmpty else { throw .nothingToPatch(unpatchable: program.unpatchable) }
            try work.write(program.source, to: GuestProgram.fileName)
            // A retry that dropped the last view compiles against the Foundation library.
            if commands.library?.library != program.library {
                commands.library = try program.library.prepare(templates: templates, commands: commands, cacheDirectory: request.cacheDirectory, scratch: work.path)
            }
            let compile = try run(request.toolchain.swiftc, commands.swiftc, in: work.path, step: "swiftc (guest)")
            if compile.status == 0 { break }
            attempt += 1
            let output = compile.standardError + compile.standardOutput
            let uncompilable = uncompilableForeignExtensions(output, program: program, generator: generator).subtracting(dropped)
            if !uncompilable.isEmpty, attempt < maximumAttempts {
                dropped.formUnion(uncompilable)
                program = generator.generate(exports: names, views: tokenised.views, excluded: excluded, dropped: dropped)
                continue
            }
            let attributed = attribute(output, program: program, generator: generator)
            guard !attributed.isEmpty, attempt < maximumAttempts else {
                throw .compileFailed(step: "swiftc (guest)", output: compile.standardError + compile.standardOutput)
            }
            excluded.append(contentsOf: attributed)
            program = generator.generate(exports: names, views: tokenised.views, excluded: excluded, dropped: dropped)
        }
        try runStep(request.toolchain.clang, commands.clang, in: work.path, step: "clang (support.c)")

        var exportedSymbols: [String] = []
        for plan in program.exports {
            exportedSymbols.append(plan.exportSymbol)
            if plan.hasScalarFastPath { exportedSymbols.append(plan.name.scalarSymbol) }
        }
        // The guest half of the pump contract (templates/guest/Foundation+Async.swift), once.
        if program.exports.contains(where: \.isAsync) { exportedSymbols += GuestModuleBuilder.asyncPumpExports }
        for view in program.views {
            exportedSymbols.append(view.request.bodyExport)
            if view.isInteractive { exportedSymbols.append(view.request.dispatchExport) }
        }
        if program.usesViewDSL { exportedSymbols.append("patch_view_manifest") }
        try runStep(request.toolchain.wasmLinker, commands.link(exports: exportedSymbols), in: work.path, step: "wasm-ld")
        var linked = (file: GuestCommands.linkedModule, step: "wasm-ld")
        if let wasmOpt = request.toolchain.wasmOpt {
            try runStep(wasmOpt, GuestCommands.wasmOpt(input: linked.file, output: "module.opt.wasm"), in: work.path, step: "wasm-opt")
            linked = ("module.opt.wasm", "wasm-opt")
        }

        let unstripped = try work.read(linked.file)
        guard let stripped = WasmSections.stripped(unstripped) else {
            throw .compileFailed(step: linked.step, output: "\(linked.step) wrote something that is not a wasm module")
        }
        var probes: [GuestProbe] = []
        var exports: [GuestManifest.Export] = []
        for plan in program.exports {
            let (decl, file, _) = generator.declaration(of: plan.unit)
            probes += try GuestProbeCollector.probes(for: plan, in: index.files[file])
            exports.append(GuestManifest.Export(
                declarationID: plan.name.declarationID, symbol: plan.exportSymbol, signature: plan.swiftSignature,
                contentHash: ContentHash.of(index.files[file].asWritten(decl)), location: plan.location,
                scalar: plan.hasScalarFastPath ? .init(symbol: plan.name.scalarSymbol, wasmSignature: plan.scalarWasmSignature) : nil))
        }
        let views = program.views.map { view in
            let entry = index.types[view.type]
            let body = entry.members.first { $0.names == ["body"] && $0.kind != .storedProperty }
            let file = index.files[body?.file ?? entry.file]
            return GuestManifest.ViewExport(
                declarationID: view.request.declarationID, type: view.request.typeName, export: view.request.bodyExport,
                dispatch: view.isInteractive ? view.request.dispatchExport : nil, contentHash: body.map { ContentHash.of(file.asWritten($0.decl)) } ?? "",
                location: GuestSourceLocation(file: file.relativePath, line: file.line(of: body?.decl ?? entry.decl)))
        }
        let moduleSHA256 = SHA256Hasher.hex(of: stripped)
        let manifest = GuestManifest(
            abiVersion: GuestManifest.currentABIVersion, baselineFingerprint: request.baselineFingerprint, moduleName: moduleName,
            module: .init(file: "module.wasm", size: stripped.count, sha256: moduleSHA256), sha256: moduleSHA256,
            symbols: "symbols.json", exports: exports, views: views.isEmpty ? nil : views, unpatchable: program.unpatchable, probes: probes)
        let symbols = SymbolMap(functions: WasmSections.functionNames(unstripped).map { .init(index: $0.index, name: $0.name) })

        try writeOutputs([
            ("module.wasm", stripped),
            ("module.unstripped.wasm", unstripped),
            ("symbols.json", try encode(symbols)),
            ("manifest.json", try encode(manifest)),
            (GuestProgram.fileName, Array(program.source.utf8)),
        ], to: request.outputDirectory)
        return GuestBuildResult(manifest: manifest, files: outputFiles)
    }

    struct SymbolMap: Codable {
        struct Function: Codable {
            var index: UInt32
            var name: String
        }
        var functions: [Function]
    }

    static func encode(_ value: some Encodable) throws(GuestBuildError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value)) + [0x0A]
        } catch {
            throw .compileFailed(step: "manifest", output: String(describing: error))
        }
    }

    /// Runs one tool of the pipeline; a non-zero exit fails the build with the tool's errors.
    private static func runStep(_ tool: String, _ arguments: [String], in directory: String, step: String) throws(GuestBuildError) {
        let result = try run(tool, arguments, in: directory, step: step)
        guard result.status == 0 else { throw .compileFailed(step: step, output: result.standardError) }
    }

    private static func run(_ tool: String, _ arguments: [String], in directory: String, step: String) throws(GuestBuildError) -> ProcessRunner.Result {
        do {
            return try ProcessRunner.run(tool, arguments, in: directory)
        } catch {
            throw .compileFailed(step: step, output: "could not start \(tool): \(error)")
        }
    }

    /// The project's extensions of types the project does not declare (`extension EnvironmentValues
    /// { var currentDate … }`) that compiler errors fall in. The closure reaches them by member name
    /// alone (a `currentDate` of the project's own type names them too), so such an error says the
    /// guest lacks the extended type or what the member uses, not that an export is wrong: the
    /// extension is dropped, and an export that really needs it fails the next attempt on its own line.
    static func uncompilableForeignExtensions(_ output: String, program: GuestProgram, generator: GuestSourceGenerator) -> Set<GuestUnit> {
        let units = GuestUnitLocator(program.closures + program.viewClosures, generator: generator)
        var found: Set<GuestUnit> = []
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, parts[3].trimmingCharacters(in: .whitespaces) == "error", let lineNumber = Int(parts[1]),
                  String(parts[0]) != GuestProgram.fileName,
                  let unit = units.smallest(containing: lineNumber, in: String(parts[0])),
                  case .global(let global) = unit, generator.index.globals[global].foreignExtension != nil else { continue }
            found.insert(unit)
        }
        return found
    }

    /// Maps compiler errors onto the exports and views whose code they are in. Errors in project code
    /// carry the project's file:line thanks to `#sourceLocation`. An error in code several of them
    /// use blames them all: dropping one would leave the code in, and the next attempt would fail
    /// the same way.
    static func attribute(_ output: String, program: GuestProgram, generator: GuestSourceGenerator) -> [GuestUnpatchable] {
        var result: [GuestUnpatchable] = []
        var blamed: Set<Int> = []
        var blamedViews: Set<Int> = []
        let exportUnits = GuestUnitLocator(program.closures, generator: generator)
        let viewUnits = GuestUnitLocator(program.viewClosures, generator: generator)
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, parts[3].trimmingCharacters(in: .whitespaces) == "error", let lineNumber = Int(parts[1]) else { continue }
            let file = String(parts[0])
            // A renamed file-private global is the user's name again (`GuestPrivateNames`).
            let message = GuestPrivateNames.restoringNames(in: parts[4].trimmingCharacters(in: .whitespaces))
            var culprits: [(export: Int, unit: GuestUnit?)] = []
            var views: [Int] = []
            if file == GuestProgram.fileName {
                for region in program.generatedLines where region.range.contains(lineNumber) { culprits.append((region.export, nil)) }
                for region in program.viewGeneratedLines where region.range.contains(lineNumber) { views.append(region.view) }
            } else {
                if let unit = exportUnits.smallest(containing: lineNumber, in: file) {
                    for (position, closure) in program.closures.enumerated() where closure.contains(unit) { culprits.append((position, unit)) }
                }
                if let unit = viewUnits.smallest(containing: lineNumber, in: file) {
                    views = program.viewClosures.indices.filter { program.viewClosures[$0].contains(unit) }
                }
            }
            for view in views where blamedViews.insert(view).inserted {
                let plan = program.views[view]
                let location = file == GuestProgram.fileName ? nil : GuestSourceLocation(file: file, line: lineNumber)
                result.append(GuestUnpatchable(
                    declarationID: plan.request.declarationID,
                    reason: viewReason(message), detail: viewDetail(message), location: location))
            }
            for (position, unit) in culprits where blamed.insert(position).inserted {
                let plan = program.exports[position]
                let imports = unit.map { generator.index.files[generator.declaration(of: $0).file].imports } ?? []
                let via = unit.flatMap { $0 == plan.unit ? nil : " (in \(generator.describe($0)), which it uses)" } ?? ""
                let reason = classify(message, imports: imports)
                // An OS framework's API the guest lacks is named, with where the layer's list is.
                let missing = reason == .osFrameworkAPI ? GuestFrameworkNames.missingSymbol(in: message).map {
                    "uses \($0), which the guest does not have (docs/guest-foundation.md lists the Foundation it has); "
                } : nil
                result.append(GuestUnpatchable(
                    declarationID: plan.name.declarationID, reason: reason,
                    detail: (missing ?? "") + "the guest compiler says: \(message)\(via)",
                    location: GuestSourceLocation(file: file == GuestProgram.fileName ? plan.location.file : file, line: file == GuestProgram.fileName ? plan.location.line : lineNumber)))
            }
        }
        return result
    }

    /// What the DSL lacks (a node, modifier or API it does not declare) or an input it cannot decode
    /// is the view's own reason; anything else is the guest tier's.
    private static func viewReason(_ message: String) -> GuestUnpatchable.Reason {
        // `is unavailable`: the DSL's Foundation stand-ins name what the guest cannot do (no clock, no
        // random source, no formatters) in their message.
        let lacking = message.contains("cannot find") || message.contains("has no member") || message.contains("unknown attribute")
            || message.contains("is unavailable")
        return lacking || message.contains("_PatchJSONCodable") ? .viewNotLowerable : classify(message, imports: [])
    }

    private static func viewDetail(_ message: String) -> String {
        guard message.contains("_PatchJSONCodable") else { return "the guest view DSL does not lower this: \(message)" }
        return "a stored property's type cannot be read from the view's inputs (String, Int, Double, Bool, Date, UUID, URL, the project's structs and enums, and arrays, dictionaries and optionals of them): \(message)"
    }

    static func classify(_ message: String, imports: [String]) -> GuestUnpatchable.Reason {
        let importsFramework = !Set(imports).isDisjoint(with: GuestFrameworkNames.frameworkModules)
        if message.contains("async") || message.contains("concurrency") || message.contains("actor") { return .asyncCode }
        if message.contains("cannot find") || message.contains("has no member") || message.contains("no such module") {
            return importsFramework ? .osFrameworkAPI : .missingDependency
        }
        // The Foundation layer marks what it declares but cannot do (`DateFormatter.date(from:)`) unavailable.
        if message.contains("is unavailable"), importsFramework { return .osFrameworkAPI }
        if message.localizedCaseInsensitiveContains("embedded Swift") || message.contains("existential") || message.contains("protocol type") {
            return .unsupportedLanguageFeature
        }
        return .compileError
    }

    static func writeOutputs(_ files: [(String, [UInt8])], to directory: String) throws(GuestBuildError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .outputUnwritable(path: directory, reason: String(describing: error))
        }
        for (name, bytes) in files {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                // `.atomic` writes a temporary file beside the destination and renames it into place.
                try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw .outputUnwritable(path: path, reason: String(describing: error))
            }
        }
    }
}

/// A private scratch directory for one build, removed afterwards.
private struct WorkDirectory {
    let path: String

    init() throws(GuestBuildError) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-guest-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .outputUnwritable(path: path, reason: String(describing: error))
        }
        self.path = path
    }

    func copyTemplates(from templates: String) throws(GuestBuildError) {
        for name in GuestTemplates.programFiles {
            let source = (templates as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: source) else {
                throw .templatesMissing(searched: [templates], executable: Installation.current.executable)
            }
            try write(data, to: name)
        }
    }

    func write(_ text: String, to name: String) throws(GuestBuildError) {
        try write(Data(text.utf8), to: name)
    }

    func write(_ data: Data, to name: String) throws(GuestBuildError) {
        let target = (path as NSString).appendingPathComponent(name)
        do {
            try data.write(to: URL(fileURLWithPath: target))
        } catch {
            throw .outputUnwritable(path: target, reason: String(describing: error))
        }
    }

    func read(_ name: String) throws(GuestBuildError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: (path as NSString).appendingPathComponent(name)) else {
            throw .compileFailed(step: "wasm-ld", output: "\(name) was not written")
        }
        return Array(data)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
