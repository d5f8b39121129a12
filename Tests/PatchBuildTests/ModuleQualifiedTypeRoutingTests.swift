import Foundation
@testable import PatchBuild
import SwiftSyntax
import Testing

/// A project type written with its module (`Backend.Category` in ACHNBrowserUI, whose app imports its
/// `Backend` package and must qualify `Category`, a name the Objective-C runtime declares too) is the
/// type that module declares: prepare checks it for Codable there, carries it through its value mirror
/// when it is not, and keeps the module in the thunk's spelling.
struct ModuleQualifiedTypeRoutingTests {
    static let kit = """
        public enum Category: String, CaseIterable {
            case fish, bugs
        }
        public struct Tag: Codable {
            public var name: String
            public struct Style: Codable { public var bold: Bool }
        }
        public typealias Tags = [Tag]

        """

    @Test func typesWrittenWithTheirModuleRoute() {
        let app = """
            import Kit

            enum Shelf {
                static func label(for category: Kit.Category) -> String { category.rawValue }
                static func next(after category: Kit.Category) -> Kit.Category { category }
                static func count(_ tags: Kit.Tags, style: Kit.Tag.Style) -> Int { tags.count }
                static func named(_ category: App.Shelf.Kind) -> Int { 0 }
                enum Kind: String, Codable { case a }
            }
            struct Progress {
                var category: Kit.Category
                var summary: String { category.rawValue }
            }
            func missing(_ thing: Kit.Missing) -> Int { 0 }
            func unprepared(_ thing: Shadow.Category) -> Int { 0 }

            """
        let project = PreparedProject(targets: ["Kit": ["Kit.swift": Self.kit], "App": ["App.swift": app]], appTarget: "App")
        #expect(project.plan.functions.map(\.export) == ["_pf_Progress_summary__get", "_pf_Shelf_count____style", "_pf_Shelf_label__for", "_pf_Shelf_named___", "_pf_Shelf_next__after"],
                "\(project.plan.functions.map(\.export)) \(project.plan.skipped)")
        let skip = project.plan.skipped.map { "\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skip == [
            "14 missing(_:): parameter type `Kit.Missing`: `Kit.Missing` is neither declared in the prepared targets nor a standard Codable type, so prepare cannot tell that the thunk compiles",
            "15 unprepared(_:): parameter type `Shadow.Category`: `Shadow.Category` is neither declared in the prepared targets nor a standard Codable type, so prepare cannot tell that the thunk compiles",
        ], "\(skip)")
        let routing = project.files[Preparer.routingFilePath(sourceRoot: "Sources/App")] ?? ""
        // The mirror names the enum as the app wrote it; Codable values keep their spelling.
        #expect(routing.contains("""
                    enum __PatchValue_Category: String, Codable { case fish; case bugs; init(_ __v: Kit.Category) { switch __v { case .fish: self = .fish; case .bugs: self = .bugs } }; var __patchValue: Kit.Category { switch self { case .fish: return .fish; case .bugs: return .bugs } } }
                    struct __PatchArguments: Encodable { let category: __PatchValue_Category }
                    struct __PatchResult: Decodable { let value: __PatchValue_Category }
            """), "\(routing)")
        #expect(routing.contains("        struct __PatchArguments: Encodable { let tags: Kit.Tags; let style: Kit.Tag.Style }\n"), "\(routing)")
        #expect(routing.contains("        struct __PatchSelf: Encodable { let category: __PatchValue_Category }\n"), "\(routing)")
        #expect(routing.contains("        struct __PatchArguments: Encodable { let category: App.Shelf.Kind }\n"), "\(routing)")
    }

    /// Swift finds a type before a module: where the app declares a type named like the module, the
    /// qualified name is that type's member, which it does not declare.
    @Test func aTypeNamedLikeTheModuleShadowsIt() {
        let app = """
            import Kit

            enum Kit {}
            func label(for category: Kit.Category) -> String { "" }

            """
        let project = PreparedProject(targets: ["Kit": ["Kit.swift": Self.kit], "App": ["App.swift": app]], appTarget: "App")
        #expect(project.plan.functions.isEmpty)
        #expect(project.plan.skipped.map(\.reason) == ["parameter type `Kit.Category`: `Kit.Category` is neither declared in the prepared targets nor a standard Codable type, so prepare cannot tell that the thunk compiles"])
    }

    /// The guest is one module: `build` reads `Kit.Category` as the `Category` it holds, blanking the
    /// qualifier with spaces (lines, columns and the written declaration the baseline hashed stay),
    /// but not where a project type is named like the module.
    @Test func theGuestReadsAModuleQualifiedNameAsItsOwnType() {
        let app = "import Kit\nenum Shop { enum Kind {} }\nfunc pick(_ c: Kit.Category, _ k: Shop.Kind) -> [Kit.Category] { [Kit.Category.fish, c] }\n"
        let index = GuestSourceIndex(sources: [("Kit/Kit.swift", Self.kit), ("App/App.swift", app)], modules: ["Kit", "App", "Shop"])
        #expect(index.files[1].tree.description
            == "import Kit\nenum Shop { enum Kind {} }\nfunc pick(_ c:     Category, _ k: Shop.Kind) -> [    Category] { [    Category.fish, c] }\n")
        #expect(index.files[1].written.description == app)
        // Without module names the code is read as written.
        #expect(GuestSourceIndex(sources: [("App/App.swift", app)]).files[0].tree.description == app)
    }

    /// A package's `public typealias Tags = [Tag]` names a type the guest copies as internal: its
    /// `public` is blanked, or the guest compiler refuses the alias.
    @Test func theGuestCopiesAPublicGlobalAsInternal() {
        let blanked = GuestSourceGenerator.publicAccessBlanked(in: DeclSyntax("public typealias Tags = [Tag]"))
        #expect(blanked.map(\.range) == [0..<6] && blanked.map(\.replacement) == ["      "])
        #expect(GuestSourceGenerator.publicAccessBlanked(in: DeclSyntax("@MainActor public(set) var count = 0")).map(\.range) == [11..<22])
        #expect(GuestSourceGenerator.publicAccessBlanked(in: DeclSyntax("func label() -> String { \"\" }")).isEmpty)
    }

    /// Xcode and SwiftPM import a target by its name with each character an identifier cannot hold as `_`.
    @Test func aTargetsModuleNameIsItsNameAsAnIdentifier() {
        #expect(PrepareTarget(name: "Backyard Birds", sourceRoots: [], files: []).moduleName == "Backyard_Birds")
        #expect(PrepareTarget(name: "Food-Truck Kit", sourceRoots: [], files: []).moduleName == "Food_Truck_Kit")
        #expect(PrepareTarget(name: "3D", sourceRoots: [], files: []).moduleName == "_3D")
        #expect(PrepareTarget(name: "Backend", sourceRoots: [], files: []).moduleName == "Backend")
    }
}

/// The thunks of Kit's types written `Kit.Category`, `Kit.Tags` and `Kit.Tag.Style`, compiled against
/// the SDK stand-in with a third module that declares another `Category` (as the Objective-C runtime
/// does), and run: unpatched each call answers natively, patched with the module's value.
@Suite(.serialized, .enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ModuleQualifiedTypeRuntimeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RuntimeModuleQualified")

    @Test func aModuleQualifiedTypeRoutesAndRuns() throws {
        func read(_ name: String, into target: String) throws -> SourceFile {
            SourceFile(path: "Sources/\(target)/\(name)", bytes: Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))))
        }
        let kit = [try read("Kit.swift", into: "Kit")]
        let app = try ["Shelf.swift", "main.swift"].map { try read($0, into: "App") }
        let plan = Preparer.plan(targets: [PrepareTarget(name: "Kit", sourceRoots: ["Sources/Kit"], files: kit),
                                           PrepareTarget(name: "App", sourceRoots: ["Sources/App"], files: app)],
                                 appTarget: "App", routing: .all, existingFile: { _ in nil })
        #expect(plan.functions.map(\.export) == ["_pf_Progress_summary__get", "_pf_Shelf_count____style", "_pf_Shelf_label__for", "_pf_Shelf_next__after", "_pf_Tag_Style_init__bold", "_pf_Tag_init__name", "_pf_exercise__"],
                "\(plan.functions.map(\.export)) \(plan.skipped)")
        let files = SDKStandIn.prepared(kit + app, by: plan)
        let shadow = try Data(contentsOf: Self.fixtures.appendingPathComponent("Shadow.swift"))
        let result = try SDKStandIn.compileAndRun(files.filter { $0.key.hasPrefix("Sources/App/") }, libraries: [
            ("Shadow", ["Shadow.swift": Array(shadow)]),
            ("Kit", files.filter { $0.key.hasPrefix("Sources/Kit/") }),
        ])
        #expect(result.status == 0, "\(result.output)")
        let calls = try String(contentsOf: Self.fixtures.appendingPathComponent("calls.txt"), encoding: .utf8)
        #expect(result.output == """
            native: fish! bugs 11 bugs 3
            module: patched fish 7 done
            calls:

            """ + calls)
    }
}
