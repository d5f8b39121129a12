import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import Testing

/// patch.json's `routing` and `routingExclude`, the `// @native` marker, and the one selection they
/// make (docs/prepare.md "Routing").
@Suite struct RoutingModeTests {
    // MARK: - The config

    private static func configJSON(_ extra: String) -> [UInt8] {
        Array("""
            {"version": 1, "appKey": "k", "apiBaseURL": "u", "channel": "production",
             "project": {"kind": "swiftpm", "path": "Package.swift"}, "targets": [{"name": "App", "sourceRoots": ["Sources/App"]}],
             "appTarget": "App", "signing": {"keyDirectory": "~/k", "publicKeyFile": "f.swift"}\(extra)}
            """.utf8)
    }

    @Test func routingAndItsExclusionsAreRead() throws {
        let config = try ProjectConfig.decode(Self.configJSON(#", "routing": "all", "routingExclude": ["Sources/App/Generated/**"]"#), path: "patch.json")
        #expect(config.routing == .all)
        #expect(config.routingMode == .all)
        #expect(config.routingExclude == ["Sources/App/Generated/**"])
        let marked = try ProjectConfig.decode(Self.configJSON(#", "routing": "marked""#), path: "patch.json")
        #expect(marked.routingMode == .marked)
        // Round trip: the file keeps both keys.
        #expect(try ProjectConfig.decode(config.encoded(), path: "patch.json") == config)
    }

    /// A config written before `routing` existed keeps today's opt-in, and says nothing new when
    /// written back (a patchcli upgrade must not change what an existing project routes).
    @Test func aConfigWithoutRoutingKeepsTheOptIn() throws {
        let config = try ProjectConfig.decode(Self.configJSON(""), path: "patch.json")
        #expect(config.routing == nil)
        #expect(config.routingMode == .marked)
        #expect(String(decoding: config.encoded(), as: UTF8.self).contains("\"routing\"") == false)
        #expect(RoutingSelection(config: config).mode == .marked)
    }

    @Test func anUnknownRoutingValueSaysWhatWhereAndHowToFix() throws {
        do {
            _ = try ProjectConfig.decode(Self.configJSON(#", "routing": "everything""#), path: "app/patch.json")
            Issue.record("an unknown routing value was accepted")
        } catch {
            guard case let .invalid(path, field, _) = error else { Issue.record("\(error)"); return }
            #expect(path == "app/patch.json")
            #expect(field == "routing")
            #expect(error.description == #"app/patch.json: field "routing" is "everything"; use "all" (prepare routes every function it can) or "marked" (only functions marked `// @patchable` or listed in "patchableFunctions")"#)
        }
        // A wrong type stays a type error.
        #expect(throws: ProjectConfig.LoadError.self) { try ProjectConfig.decode(Self.configJSON(#", "routing": true"#), path: "patch.json") }
    }

    @Test func badRoutingExcludeGlobsAreRefusedWhereTheConfigIsRead() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("routing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cases: [(glob: String, says: String)] = [
            ("", "is empty"), ("/Sources/App/**", "is absolute"), ("Sources/*.{swift,m}", "contains `{`"),
            ("Sources/**.swift", "`**` must be a whole path component"), ("../Shared/**", "`..`"), (#"Sources\\App"#, "`\\`"),
        ]
        for (glob, says) in cases {
            try Data(Self.configJSON(#", "routingExclude": ["Sources/Ok/**", "\#(glob)"]"#)).write(to: URL(fileURLWithPath: root + "/patch.json"))
            do {
                _ = try ProjectSources.loadConfig(root: root)
                Issue.record("\(glob) was accepted")
            } catch {
                guard case let .config(.invalid(_, field, reason)) = error else { Issue.record("\(error)"); continue }
                #expect(field == "routingExclude[1]")
                #expect(reason.contains(says), "\(reason)")
            }
        }
        try Data(Self.configJSON(#", "routingExclude": ["Sources/App/Generated/**", "**/*+Mock.swift", "Sources/?pp/Legacy*.swift"]"#))
            .write(to: URL(fileURLWithPath: root + "/patch.json"))
        #expect(try ProjectSources.loadConfig(root: root).routingExclude.count == 3)
    }

    /// `init` writes `routing: all` into a new project's patch.json.
    @Test func initWritesRoutingAllForANewProject() throws {
        let root = try InitTests.demoPackage()
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: root + "-home") }
        let plan = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: root + "-home")
        let configBytes = try #require(plan.writes.first { $0.path == ProjectConfig.fileName }?.bytes)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(configBytes)) as? [String: Any])
        #expect(json["routing"] as? String == "all")
        #expect(json["routingExclude"] as? [String] == [])
    }

    /// A re-run of `init` on a patch.json written before `routing` keeps it without (so `marked`).
    @Test func initKeepsAnExistingConfigsChoice() throws {
        let root = try InitTests.demoPackage()
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: root + "-home") }
        let first = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: root + "-home")
        let firstConfig = try #require(first.writes.first { $0.path == ProjectConfig.fileName }?.bytes)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(firstConfig)) as? [String: Any])
        json["routing"] = nil
        let older = try JSONSerialization.data(withJSONObject: json)
        try older.write(to: URL(fileURLWithPath: root + "/" + ProjectConfig.fileName))
        let again = try ProjectInitializer.plan(InitOptions(root: root), homeDirectory: root + "-home")
        let written = again.writes.first { $0.path == ProjectConfig.fileName }.map { Data($0.bytes) } ?? older
        let rewritten = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(rewritten["routing"] == nil)
        #expect(try ProjectSources.loadConfig(root: root).routingMode == .marked)
    }

    // MARK: - The selection

    /// One file of each case the selection tells apart.
    private static let sources: [String: String] = [
        "Pricing.swift": """
            enum Pricing {
                static func total(_ cents: Int) -> Int { cents }
                // @patchable
                static func marked(_ cents: Int) -> Int { cents }
                // @native: measured hot
                static func native(_ cents: Int) -> Int { cents }
                /// Listed in patchableFunctions and kept native: `@native` names the declaration itself.
                /// @native
                static func listedNative(_ cents: Int) -> Int { cents }
                static func listed(_ cents: Int) -> Int { cents }
            }

            """,
        "Generated/Model.swift": """
            enum Model {
                static func excluded(_ id: Int) -> Int { id }
                @discardableResult
                // @patchable
                static func markedInExcludedFile(_ id: Int) -> Int { id }
            }

            """,
    ]

    private static func routed(_ routing: RoutingSelection) -> [String] {
        PreparedProject(targets: ["App": sources], routing: routing).plan.functions.map(\.key).sorted()
    }

    @Test func allRoutesEveryFunctionButNativeAndExcludedOnes() {
        let all = RoutingSelection(mode: .all, patchableFunctions: ["Pricing.listed(_:)", "Pricing.listedNative(_:)"],
                                   excludedFiles: ["Sources/App/Generated/**"])
        #expect(Self.routed(all) == ["Model.markedInExcludedFile(_:)", "Pricing.listed(_:)", "Pricing.marked(_:)", "Pricing.total(_:)"])
        // Without exclusions every file's functions are routed.
        #expect(Self.routed(.all) == ["Model.excluded(_:)", "Model.markedInExcludedFile(_:)", "Pricing.listed(_:)", "Pricing.marked(_:)", "Pricing.total(_:)"])
    }

    @Test func markedRoutesOnlyTheMarkedAndListed() {
        #expect(Self.routed(.marked) == ["Model.markedInExcludedFile(_:)", "Pricing.marked(_:)"])
        #expect(Self.routed(RoutingSelection(mode: .marked, patchableFunctions: ["Pricing.listed(_:)"]))
                == ["Model.markedInExcludedFile(_:)", "Pricing.listed(_:)", "Pricing.marked(_:)"])
    }

    /// The predicate itself, as the kinds of candidate other than functions will use it.
    @Test func theSelectionPredicate() {
        struct Candidate: RoutingCandidate {
            var key = "Cart.total"
            var hasMarker = false
            var hasNativeMarker = false
        }
        let all = RoutingSelection(mode: .all, patchableFunctions: ["Cart.total"], excludedFiles: ["Sources/Mocks/**"])
        #expect(RoutingSelection.all.selects(Candidate(), inFile: "Sources/Cart.swift"))
        #expect(!RoutingSelection.all.selects(Candidate(hasNativeMarker: true), inFile: "Sources/Cart.swift"))
        #expect(!RoutingSelection(mode: .all, excludedFiles: ["Sources/Mocks/**"]).selects(Candidate(), inFile: "Sources/Mocks/Cart.swift"))
        #expect(all.selects(Candidate(), inFile: "Sources/Mocks/Cart.swift"), "a listed key wins over the globs")
        #expect(!all.selects(Candidate(hasNativeMarker: true), inFile: "Sources/Cart.swift"), "`// @native` wins over the list")
        #expect(!RoutingSelection.marked.selects(Candidate(), inFile: "Sources/Cart.swift"))
        #expect(RoutingSelection.marked.selects(Candidate(hasMarker: true), inFile: "Sources/Cart.swift"))
        #expect(!RoutingSelection.marked.selects(Candidate(hasMarker: true, hasNativeMarker: true), inFile: "Sources/Cart.swift"))
    }

    // MARK: - prepare's output in both modes

    private static let shop = """
        import Foundation

        enum Shop {
            static func price(of cents: Int, quantity: Int) -> Int { cents * quantity }
            // @native
            static func tax(_ cents: Int) -> Int { cents / 5 }
            static func log(_ line: String) -> Never { fatalError(line) }
        }

        """

    @Test func prepareInAllModeRoutesUnmarkedFunctionsAndReportsTheRest() {
        let project = PreparedProject(Self.shop, routing: .all)
        #expect(project.userFile == Self.shop.replacingOccurrences(of: "    static func price", with: "    static dynamic func price"))
        #expect(project.plan.functions.map(\.export) == ["_pf_Shop_price__of_quantity"])
        #expect(project.routingThunks.contains("@_dynamicReplacement(for: price(of:quantity:))"))
        #expect(!project.routingThunks.contains("tax"))
        // Selected but not routable: reported (the JSON lists it), never rewritten.
        #expect(project.plan.skipped.map { "\($0.declaration) \($0.file):\($0.line)" } == ["Shop.log(_:) Sources/App/View.swift:7"])
        #expect(project.plan.skipped.first?.reason.contains("never returns") == true)
    }

    /// `build` judges a change by what the shipped prepare routed: under `all`, an unmarked function's
    /// change ships, a `// @native` one's is `not_routed` and says how to route it.
    @Test func changesAreJudgedByWhatAllRouted() throws {
        let shipped = PreparedProject(Self.shop, routing: .all)
        let edited = Self.shop.replacingOccurrences(of: "cents * quantity", with: "cents * quantity + 1")
            .replacingOccurrences(of: "cents / 5", with: "cents / 4")
        let changes = ChangeDetector.compare(baseline: shipped.plan.baseline, current: PreparedProject(edited, routing: .all).plan,
                                             shippedExports: Set(shipped.plan.functions.map(\.export)))
        let byID = Dictionary(uniqueKeysWithValues: changes.map { ($0.id, $0) })
        #expect(byID["App:Shop.price(of:Int,quantity:Int)"]?.status == .patched)
        let tax = try #require(byID["App:Shop.tax(_:Int)"])
        #expect(tax.status == .nativeOnly && tax.reason == DeclarationChange.NativeReason.notRouted)
        #expect(tax.detail?.contains("not `// @native`") == true, "\(tax.detail ?? "")")
    }

    /// A function an earlier run routed and this one does not loses the `dynamic` that run inserted
    /// (`// @native` added for speed makes it inlinable again); a `dynamic` the user wrote stays.
    @Test func aFunctionNoLongerRoutedLosesTheInsertedDynamic() throws {
        let source = """
            enum Shop {
                static func price(_ cents: Int) -> Int { cents }
                // @native
                static dynamic func own(_ cents: Int) -> Int { cents }
            }

            """
        let first = PreparedProject(source, routing: .all)
        #expect(first.userFile == source.replacingOccurrences(of: "static func price", with: "static dynamic func price"))
        let marked = first.userFile.replacingOccurrences(of: "    static dynamic func price", with: "    // @native\n    static dynamic func price")
        let target = PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: [SourceFile(path: "Sources/App/View.swift", bytes: Array(marked.utf8))])
        let second = Preparer.plan(targets: [target], appTarget: "App", routing: .all, previousInsertions: first.plan.insertions,
                                   existingFile: { first.files[$0].map { Array($0.utf8) } })
        let after = try #require(second.updates.first { $0.path == "Sources/App/View.swift" }?.after)
        #expect(String(decoding: after, as: UTF8.self) == source.replacingOccurrences(of: "    static func price", with: "    // @native\n    static func price"))
        #expect(second.functions.isEmpty)
        #expect(second.updates.contains { $0.path == Preparer.routingFilePath(sourceRoot: "Sources/App") && $0.after == nil })
        // The scan kept for the next run is the scan of the new bytes.
        let fresh = after.withUnsafeBufferPointer { SourceScanner.scan(Parser.parse(source: $0), source: after) }
        #expect(second.cache.scans[SHA256Hasher.hex(of: after)] == fresh)
    }

    @Test func prepareInMarkedModeLeavesUnmarkedFunctionsAlone() {
        let project = PreparedProject(Self.shop, routing: .marked)
        #expect(project.userFile == Self.shop)
        #expect(project.plan.functions.isEmpty)
        #expect(project.plan.skipped.isEmpty)
        #expect(project.routingFile == nil)
    }
}

/// What `routing: all` generates for every function it routes compiles against the SDK stand-in.
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct RoutingModeCompileTests {
    /// Access levels as real apps write them (ACHNBrowserUI's `private static func supportsLanguage`):
    /// a `private` member is widened to `fileprivate` (PrivateMemberWidening); all are routed and compile.
    @Test func accessLevelsRoutedUnderAllCompile() throws {
        let source = """
            import Foundation

            public struct LocalizedItemService {
                private static func supportsLanguage(_ code: String) -> Bool { code.hasPrefix("en") }
                fileprivate static func fallback(_ code: String) -> String { code }
                public static func isSupported(_ code: String) -> Bool { supportsLanguage(code) }
            }

            extension LocalizedItemService {
                private static func prefix(_ code: String) -> String { String(code.prefix(2)) }
                static func normalized(_ code: String) -> String { prefix(code).lowercased() }
            }

            private enum Table { static func row(_ index: Int) -> Int { index } }

            private func clamp(_ value: Int) -> Int { max(0, value) }

            func useAll() -> Int { Table.row(clamp(LocalizedItemService.fallback("x").count)) }

            """
        let project = PreparedProject(source, routing: .all)
        #expect(project.plan.functions.map(\.key).sorted() == [
            "LocalizedItemService.fallback(_:)", "LocalizedItemService.isSupported(_:)", "LocalizedItemService.normalized(_:)",
            "LocalizedItemService.prefix(_:)", "LocalizedItemService.supportsLanguage(_:)", "Table.row(_:)", "clamp(_:)", "useAll()",
        ])
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.userFile.contains("fileprivate static dynamic func supportsLanguage(_ code: String)"))
        let routing = try #require(project.routingFile)
        let diagnostics = try SDKStandIn.typecheck(["View.swift": project.userFile, "Thunks.swift": routing],
                                                   modules: ["PatchSDK"])
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }
}
