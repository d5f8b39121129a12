import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import Testing

/// What `prepare` routes of class methods, how their thunks send and write back `self`, and why it
/// skips the others (docs/prepare.md "Class methods").
@Suite struct ClassMethodRoutingTests {
    @Test func aClassMethodSendsTheMirrorAndWritesBackOnlyChangedVars() {
        let source = """
            struct Item: Codable { var cents: Int }
            final class Session {}

            final class Basket: ObservableObject {
                @Published var items: [Item] = []
                var discount = 0
                let currency: String = "EUR"
                weak var owner: Basket?
                let session: Session = Session()

                // @patchable
                func add(_ item: Item) -> Int { items.append(item); return items.count }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.userFile.contains("    dynamic func add(_ item: Item) -> Int {"))
        #expect(project.routingFile?.contains("import Foundation\n") == true, "JSONEncoder compares the properties")
        let hash = project.plan.baseline.declarations.first { $0.id == "App:Basket.add(_:Item)" }?.contentHash ?? "?"
        // `owner` (weak) and `session` (not Codable) are left out; the `let` is sent, never written.
        #expect(project.routingThunks == """
            extension Basket {
                // patch-function-sha256: \(hash)
                @_dynamicReplacement(for: add(_:))
                func __patch_add(_ item: Item) -> Int {
                    struct __PatchSelf: Codable { let items: [Item]; let discount: Int; let currency: String; static func changed<T: Encodable>(_ sent: T, _ returned: T) -> Bool { let encoder = JSONEncoder(); encoder.outputFormatting = .sortedKeys; return (try? encoder.encode(sent)) != (try? encoder.encode(returned)) } }
                    struct __PatchArguments: Encodable { let __self: __PatchSelf; let item: Item; enum CodingKeys: String, CodingKey { case __self = "self", item } }
                    struct __PatchResult: Decodable { let value: Int; let __self: __PatchSelf; enum CodingKeys: String, CodingKey { case value, __self = "self" } }
                    if Patch.shared.hasFunction("_pf_Basket_add___") {
                        let __sent = __PatchSelf(items: self.items, discount: self.discount, currency: self.currency)
                        if let __result = try? Patch.shared.callJSON("_pf_Basket_add___", __PatchArguments(__self: __sent, item: item), returning: __PatchResult.self) {
                            if __PatchSelf.changed(__sent.items, __result.__self.items) { self.items = __result.__self.items }
                            if __PatchSelf.changed(__sent.discount, __result.__self.discount) { self.discount = __result.__self.discount }
                            return __result.value
                        }
                    }
                    return add(item)
                }
            }

            """)
        assertParses(project.routingFile ?? "", "routing file")
    }

    /// What SwiftUI apps write: a `@MainActor` view model with `@Published` state and a service
    /// object. Its thunks (members of the class's extension, so main-actor isolated as its methods
    /// are) typecheck in Swift 6 mode against the stand-ins.
    @Test(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
    func aMainActorObservableObjectsThunksCompile() throws {
        let source = """
            import SwiftUI

            final class Service { func fetch(_ query: String) -> [String] { [query] } }

            @MainActor
            final class SearchModel: ObservableObject {
                @Published var query: String = ""
                @Published private(set) var results: [String] = []
                let service: Service = Service()
                var onSelect: ((String) -> Void)?

                // @patchable
                func search() { results = service.fetch(query) }
                // @patchable
                func clear(keeping count: Int) -> Int { results = Array(results.prefix(count)); return results.count }
                // @patchable
                var summary: String { "\\(results.count) for \\(query)" }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.plan.functions.map(\.key) == ["SearchModel.clear(keeping:)", "SearchModel.search()", "SearchModel.summary"])
        var files: [String: String] = [:]
        for (path, text) in project.files where path.hasPrefix("Sources/App/") { files[(path as NSString).lastPathComponent] = text }
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    @Test func aMethodInAnotherFileThanAPrivateStoredPropertyIsSkipped() {
        let model = "final class Store {\n    private(set) var count = 0\n}\n"
        let other = "extension Store {\n    // @patchable\n    func bump() { count += 1 }\n}\n"
        let project = PreparedProject(targets: ["App": ["Store.swift": model, "Other.swift": other]])
        #expect(project.plan.skipped.map { "\($0.file):\($0.line) \($0.declaration): \($0.reason)" } == [
            "Sources/App/Other.swift:3 Store.bump(): the receiver's stored property `count` is private to Sources/App/Store.swift:2, which the thunk must read; declare the method in that file",
        ])
    }

    @Test func aClassRecordsTheStoredPropertiesItsMirrorLeavesOut() throws {
        let source = """
            @Observable
            final class Store {
                var names: [String] = []
                @ObservationIgnored var cache: [String: Int] = [:]
                @AppStorage("token") var token = ""
                weak var parent: Store?
                unowned let root: Store
                lazy var formatter: Int = 1
                var onChange: () -> Void = {}
                var inferred = names.count
            }

            """
        let scan = SourceScanner.scan(Parser.parse(source: source), source: Array(source.utf8))
        let store = try #require(scan.types.first { $0.path == ["Store"] })
        #expect(store.storedProperties.unsupportedReason == nil)
        #expect(store.storedProperties.properties.map(\.name) == ["names", "cache"])
        #expect(store.storedProperties.leftOut.map { "\($0.line) \($0.name)" } == ["5 token", "6 parent", "7 root", "8 formatter", "9 onChange", "10 inferred"])
        #expect(store.storedProperties.leftOut.map(\.reason).allSatisfy { !$0.isEmpty })
        #expect(store.storedProperties.leftOut[1].reason.contains("`weak`"))
    }

    @Test func classesWhoseCopyCouldRunOtherCodeAreSkippedWithTheReason() {
        let source = """
            class Base {
                var count = 0
                // @patchable
                func bump() { count += 1 }
            }
            final class Derived: Base {
                // @patchable
                func twice() { bump(); bump() }
            }
            open class Open {
                var count = 0
                // @patchable
                func bump() { count += 1 }
            }
            actor Counter {
                var count = 0
                // @patchable
                func bump() { count += 1 }
            }
            final class Made {
                var count: Int
                // @patchable
                init(count: Int) { self.count = count }
            }
            class Plain {
                var count = 0
                // @patchable
                func bump() { count += 1 }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        let skipped = project.plan.skipped.map { "\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skipped == [
            "4 Base.bump(): the receiver's class `Base` (Sources/App/View.swift:1) has the subclass `Derived` (Sources/App/View.swift:6), whose overrides the module would not run; mark `Base` `final` or the method `// @native`",
            "8 Derived.twice(): the receiver's class `Derived` (Sources/App/View.swift:6) inherits from `Base`, whose stored properties a mirror of it would not carry",
            "13 Open.bump(): the receiver's class `Open` (Sources/App/View.swift:10) is `open`: a subclass in another module could override the methods the module runs as `Open` declares them",
            "18 Counter.bump(): instance methods of an actor are not routed: its state is isolated to the actor, and a copy sent to the module could not be written back without crossing that isolation",
            "23 Made.init(count:): initializers of a class are not routed: a replacement would have to repeat the class's rules for designated and convenience initializers, and its stored `let`s cannot be assigned twice",
        ], "\(skipped)")
        // A class nothing subclasses routes although it is not `final`.
        #expect(project.plan.functions.map(\.key) == ["Plain.bump()"])
    }

    /// A parameter of a class type travels as a copy of the object (docs/prepare.md "Objects as
    /// parameters"); a class whose copy would miss what it holds or runs, or whose properties the
    /// copy could not read (Swift 6 refuses a `@MainActor` class's from a nonisolated initializer), is
    /// refused with why.
    @Test func aParameterWhoseClassCannotBeCopiedIsSkippedWithWhy() {
        let source = """
            final class Chore {
                var title = ""
                private var isDone = false
            }
            class Design { var code = "" }
            final class Pattern: Design {}
            @MainActor final class Screen { var title = "" }

            enum Board {
                // @patchable
                static func label(_ chore: Chore) -> String { chore.title }
                // @patchable
                static func code(of design: Design?) -> String { design?.code ?? "" }
                // @patchable
                @MainActor static func heading(_ screen: Screen) -> String { screen.title }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.functions.isEmpty)
        #expect(project.plan.skipped.map(\.reason) == [
            "parameter type `Chore`: an object of class `Chore` travels only as a copy, and this one cannot be copied: its stored property `isDone` (Sources/App/View.swift:3) is `private` to its file, which the thunk cannot read",
            "parameter type `Design?`: an object of class `Design` travels only as a copy, and this one cannot be copied: `Design` (Sources/App/View.swift:5) has the subclass `Pattern` (Sources/App/View.swift:6), whose overrides the module would not run",
            "parameter type `Screen`: an object of class `Screen` travels only as a copy, and this one cannot be copied: `Screen` (Sources/App/View.swift:7) is `@MainActor`, and the copy's initializer, which reads its properties, is not isolated to the main actor",
        ])
    }
}
