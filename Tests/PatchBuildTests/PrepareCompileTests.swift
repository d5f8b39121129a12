import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// Everything `prepare` generates compiles against the SDK's real API (the stand-in in
/// Tests/SDKStandIn): each target's sources and generated files are typechecked together as one
/// module, in Swift 6 mode, and what would not compile is refused with a reason instead.
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct PrepareCompileTests {
    /// A logic target: every function shape prepare accepts, and shapes it must refuse.
    static let logic = """
        import Foundation

        public struct Money: Codable, Equatable {
            public var cents: Int
        }

        public enum Tier: String, Codable { case basic, gold }

        enum Plain { case a, b }

        struct Point: Encodable { var x: Int }
        extension Point: Decodable {}

        protocol Model: Codable {}
        struct Order: Model { var id: Int }

        class Account: Codable { var id = 0 }
        final class Savings: Account {}

        typealias Identifier = UUID
        typealias Pair = (Int, Int)

        struct Config { var name: String }

        public enum Pricing {
            // @patchable
            public static func total(of cents: Int, _ quantity: Int) throws -> Int { cents * quantity }
            // @patchable
            static func discount(for tier: Tier, amount: Money = Money(cents: 0)) -> Money { amount }
            // @patchable
            package static func label(`for` value: Double?) -> [String: [Int]] { [:] }
            // @patchable
            static func `default`(order: Order, id: Identifier) -> Swift.Int { order.id }
            // @patchable
            static func point(at date: Date, url: URL, id: UUID, data: Data, set: Set<String>, range: ClosedRange<Int>,
                              interval: TimeInterval, duration: Duration) -> Point? { nil }
            // @patchable
            @MainActor static func isolated(_ x: Int) -> Int { x }
            // @patchable
            static func move(to: Int, in: String, for value: Int, `default`: Bool) -> Int { to }
            // @patchable
            static func plain(_ value: Plain) -> Int { 0 }
            // @patchable
            static func config(named name: String) -> Config { Config(name: name) }
            // @patchable
            static func pair() -> (Int, Int) { (0, 0) }
            // @patchable
            static func aliasedPair() -> Pair { (0, 0) }
            // @patchable
            static func ignoring(_: Int) -> Int { 0 }
            // @patchable
            static func apply(_ f: @escaping (Int) -> Int) -> Int { 0 }
            // @patchable
            static func anyValue(_ value: any Equatable) -> Int { 0 }
            // @patchable
            static func typeOf(_ type: Int.Type) -> Int { 0 }
            // @patchable
            static func + (lhs: Pricing, rhs: Pricing) -> Int { 0 }
            // @patchable
            static func typed() throws(CancellationError) -> Int { 0 }
            // @patchable
            static func foreign(_ value: NSObject) -> Int { 0 }
            // @patchable
            @inlinable public static func inlined(_ x: Int) -> Int { x }

            struct Nested {
                // @patchable
                static func inner(_ value: Int) -> Nested.Result { Result(v: value) }
                // @patchable
                static func qualified(_ value: Int) -> Pricing.Nested.Result { Result(v: value) }
                // @patchable
                static func member(_ value: Int) -> Result { Result(v: value) }
                struct Result: Codable { var v: Int }
            }
        }

        class Store {
            // @patchable
            class func count(_ items: [Money]) -> Int { items.count }
            // @patchable
            static func lookup(_ table: [String: Tier]) throws -> Tier? { table.values.first }
            // @patchable
            static func open(_ account: Savings) -> Account { account }
        }

        struct Box<T> {
            // @patchable
            static func make() -> Int { 0 }
        }
        extension Box {
            // @patchable
            static func other() -> Int { 0 }
            struct Inner {
                // @patchable
                static func nested() -> Int { 0 }
            }
        }

        protocol Shape {}
        extension Shape {
            // @patchable
            static func sides() -> Int { 0 }
        }

        extension String {
            // @patchable
            static func shout(_ text: String) -> String { text.uppercased() }
        }

        extension Array where Element == Int {
            // @patchable
            static func zeros(_ count: Int) -> Int { count }
        }

        extension Collection {
            // @patchable
            static func none() -> Int { 0 }
        }

        #if DEBUG
        // @patchable
        func debugOnly(_ x: Int) -> Int { x }
        #else
        // @patchable
        func releaseOnly(_ x: Int) -> Int { x }
        #endif

        @available(macOS 10.15, iOS 13, *)
        // @patchable
        public func available(_ x: Int) -> Int { x }

        private enum Secret {
            // @patchable
            static func code() -> String { "" }
        }

        // @patchable
        private func hidden(_ x: Int) -> Int { x }

        """

    /// A UI target: view thunks of every shape, a function in a view type.
    static let views = """
        import SwiftUI

        struct Greeting: View {
            var name: String
            var body: some View {
                VStack {
                    Text("Hello, \\(name)")
                    Text("second")
                }
            }
            // @patchable
            static func title(for name: String) -> String { name }
        }

        public struct PublicCard: View {
            public init() {}
            public var body: some View { Text("card").font(.title) }
        }

        enum Outer {
            struct Inner: View {
                var body: some View { Color.red }
            }
        }

        private struct Secret: View {
            var body: some View {
                if Bool.random() { Text("a") } else { Text("b") }
            }
        }

        #if os(iOS)
        struct PhoneOnly: View { var body: some View { Text("phone") } }
        #elseif DEBUG
        struct DebugOnly: View { var body: some View { Text("debug") } }
        #endif

        @available(iOS 17, macOS 14, *)
        struct Modern: View { var body: some View { Text("modern") } }

        struct Later {}
        extension Later: View {
            var body: some View { Text("later") }
        }

        struct CardStyle: ViewModifier {
            var title: String
            func body(content: Content) -> some View {
                VStack {
                    Text(title)
                    content.padding()
                }
            }
        }

        public struct Glow: SwiftUI.ViewModifier {
            public func body(content view: _ViewModifier_Content<Glow>) -> some View { view.foregroundColor(.white) }
        }

        struct Usage: View {
            var body: some View { Text("used").modifier(CardStyle(title: "t")).modifier(Glow()) }
        }

        """

    /// A generated file's path in a target's sources: in the root's `Patch/` folder.
    private func generated(_ fileName: String) -> String { Preparer.generatedFolderName + "/" + fileName }

    /// The routing file of the fixture target `Sources/<target>`, relative to that root.
    private func routingFile(of target: String) -> String {
        String(Preparer.routingFilePath(sourceRoot: "Sources/\(target)").dropFirst("Sources/\(target)/".count))
    }

    /// The sources of `target` after prepare: user files and generated files, by path in the target.
    private func files(of project: PreparedProject, target: String) -> [String: String] {
        var files: [String: String] = [:]
        for (path, text) in project.files where path.hasPrefix("Sources/\(target)/") {
            files[String(path.dropFirst("Sources/\(target)/".count))] = text
        }
        return files
    }

    @Test func everyAcceptedFunctionThunkCompilesWithoutSwiftUI() throws {
        let project = PreparedProject(targets: ["Logic": ["Pricing.swift": Self.logic]], appTarget: "Logic")
        #expect(project.plan.functions.map(\.key).sorted() == [
            "Pricing.Nested.member(_:)", "Pricing.Nested.qualified(_:)", "Pricing.config(named:)", "Pricing.default(order:id:)", "Pricing.discount(for:amount:)",
            "Pricing.isolated(_:)", "Pricing.label(for:)", "Pricing.move(to:in:for:default:)", "Pricing.plain(_:)", "Pricing.point(at:url:id:data:set:range:interval:duration:)", "Pricing.total(of:_:)",
            "Secret.code()", "Store.count(_:)", "Store.lookup(_:)", "Store.open(_:)", "String.shout(_:)", "available(_:)", "debugOnly(_:)", "hidden(_:)",
            "releaseOnly(_:)",
        ])
        let files = files(of: project, target: "Logic")
        #expect(Set(files.keys) == [generated(Preparer.fingerprintFileName), "Pricing.swift", routingFile(of: "Logic")])
        // Only PatchSDK is visible: function-only code must not need SwiftUI or PatchSwiftUI.
        let diagnostics = try SDKStandIn.typecheck(files, moduleName: "Logic", modules: ["PatchSDK"])
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
        for file in files.values { assertParses(file, "prepared file") }
    }

    @Test func refusedFunctionsSayWhyAndWhere() {
        let project = PreparedProject(targets: ["Logic": ["Pricing.swift": Self.logic]], appTarget: "Logic")
        let lines = Self.logic.components(separatedBy: "\n")
        func line(of text: String) -> Int { (lines.firstIndex { $0.contains(text) } ?? -1) + 1 }
        let skipped = Dictionary(uniqueKeysWithValues: project.plan.skipped.map { ($0.declaration, $0) })
        let expected: [(String, String, String)] = [
            ("Pricing.pair()", "func pair", "tuples (`(Int, Int)`) are not Codable"),
            ("Pricing.aliasedPair()", "func aliasedPair", "`Pair` is an alias of a type that cannot be Codable"),
            ("Pricing.ignoring(_:)", "func ignoring", "a parameter without a name"),
            ("Pricing.apply(_:)", "func apply", "function type"),
            ("Pricing.anyValue(_:)", "func anyValue", "existential"),
            ("Pricing.typeOf(_:)", "func typeOf", "metatypes"),
            ("Pricing.+(lhs:rhs:)", "func +", "operators"),
            ("Pricing.typed()", "func typed", "typed `throws(…)`"),
            ("Pricing.inlined(_:)", "func inlined", "`@inlinable` functions are inlined into their callers and cannot be `dynamic`"),
            ("Pricing.foreign(_:)", "func foreign", "`NSObject` is neither declared in the prepared targets nor a standard Codable type"),
            ("Pricing.Nested.inner(_:)", "func inner", "write it as `Pricing.Nested.Result`"),
            ("Box.make()", "func make", "generic types"),
            ("Box.other()", "func other", "generic types and protocols"),
            ("Box.Inner.nested()", "func nested", "generic types and protocols"),
            ("Shape.sides()", "func sides", "protocol extensions"),
            ("Array.zeros(_:)", "func zeros", "generic types and protocols"),
            ("Collection.none()", "func none", "generic types and protocols"),
        ]
        for (declaration, marker, reason) in expected {
            let skip = skipped[declaration]
            #expect(skip?.file == "Sources/Logic/Pricing.swift" && skip?.line == line(of: marker), "\(declaration): \(String(describing: skip))")
            #expect(skip?.reason.contains(reason) == true, "\(declaration): \(skip?.reason ?? "not skipped")")
        }
        #expect(project.plan.skipped.count == expected.count, "\(project.plan.skipped.map(\.declaration))")
        // A refused function is left as written: no `dynamic`.
        #expect(!project.files["Sources/Logic/Pricing.swift", default: ""].contains("dynamic func pair"))
    }

    /// A function may take types another prepared target declares (the app imports its logic package).
    @Test func typesOfOtherTargetsAreCheckedToo() {
        let logic = "public struct Money: Codable { public var cents: Int }\npublic struct Cart { public var items: [Int] }\n"
        let app = """
            import Logic
            enum Checkout {
                // @patchable
                static func total(_ money: Money) -> Money { money }
                // @patchable
                static func count(_ cart: Cart) -> Int { cart.items.count }
            }

            """
        let project = PreparedProject(targets: ["Logic": ["Money.swift": logic], "App": ["Checkout.swift": app]], appTarget: "App")
        #expect(project.plan.functions.map(\.key) == ["Checkout.total(_:)"])
        #expect(project.plan.skipped.map(\.declaration) == ["Checkout.count(_:)"])
        #expect(project.plan.skipped.first?.reason.contains("`Cart` is not Encodable") == true)
        #expect(project.plan.skipped.first.map { "\($0.file):\($0.line)" } == "Sources/App/Checkout.swift:6")
    }

    @Test func objcFunctionsAreRefused() {
        let project = PreparedProject("class Bridge {\n    // @patchable\n    @objc static func value() -> Int { 0 }\n}\n")
        #expect(project.plan.skipped.map(\.declaration) == ["Bridge.value()"])
        #expect(project.plan.skipped.first?.reason.contains("@objc") == true)
        #expect(project.plan.functions.isEmpty)
    }

    @Test func viewThunksFingerprintAndKeyFilesCompile() throws {
        var project = PreparedProject(targets: ["App": ["Views.swift": Self.views]], appTarget: "App")
        #expect(project.plan.views.map(\.typeName) == ["CardStyle", "DebugOnly", "Glow", "Greeting", "Later", "Modern", "Outer_Inner", "PhoneOnly", "PublicCard", "Secret", "Usage"])
        #expect(project.plan.functions.map(\.key) == ["Greeting.title(for:)"])
        project.files["Sources/App/PatchPublicKey.generated.swift"] = ProjectInitializer.publicKeyFile(root: SigningKey.generate().publicKey)
        let files = files(of: project, target: "App")
        #expect(files.keys.sorted() == [generated(Preparer.fingerprintFileName), routingFile(of: "App"), "PatchPublicKey.generated.swift", "Views.swift"].sorted())
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// An iOS and a tvOS app each declare `ContentView` and `Controls.Bar`, and two packages of the
    /// iOS app each declare `Row`: every view is routed under a name qualified with its target, and
    /// each target (its own module) compiles with its generated code.
    @Test func sameNamedViewsOfSeveralTargetsAreAllRoutedAndCompile() throws {
        let app = """
            import SwiftUI
            struct ContentView: View { var body: some View { Text("home") } }
            enum Controls { struct Bar: View { var body: some View { Text("bar") } } }
            """
        let row = "import SwiftUI\npublic struct Row: View {\n    public init() {}\n    public var body: some View { Text(\"row\") }\n}\n"
        let project = PreparedProject(targets: [
            "Phone": ["App.swift": app], "TV": ["App.swift": app.replacingOccurrences(of: "\"home\"", with: "\"tv\"")],
            "CardsKit": ["Row.swift": row], "ListKit": ["Row.swift": row],
        ], appTarget: "Phone", routing: .marked)
        #expect(project.plan.collisions.isEmpty && project.plan.skipped.isEmpty)
        #expect(project.plan.views.map(\.typeName).sorted() == [
            "CardsKit_Row", "ListKit_Row", "Phone_ContentView", "Phone_Controls_Bar", "TV_ContentView", "TV_Controls_Bar",
        ])
        for target in ["Phone", "TV", "CardsKit", "ListKit"] {
            let files = files(of: project, target: target)
            #expect(files.keys.contains(routingFile(of: target)))
            let diagnostics = try SDKStandIn.typecheck(files, moduleName: target)
            #expect(diagnostics == nil, "\(target): \(diagnostics ?? "")")
        }
    }

    /// Views through a protocol refining `View` and a typealias compile once routed; a view whose
    /// `body` comes from a protocol extension is left as written and compiles too.
    @Test func viewsThroughProtocolsCompile() throws {
        let source = """
            import SwiftUI
            protocol ThemedView: View { var title: String { get } }
            protocol BrandedView: ThemedView {}
            typealias Screen = View
            struct Badge: BrandedView {
                let title = "badge"
                var body: some View { Text(title) }
            }
            struct Page: Screen { var body: some View { VStack { Text("a"); Text("b") } } }
            protocol PlatformView: View { var phone: Text { get } }
            extension PlatformView {
                var body: some View { phone }
            }
            struct Selector: PlatformView { var phone: Text { Text("s") } }
            """
        let project = PreparedProject(targets: ["App": ["Views.swift": source]], appTarget: "App", routing: .marked)
        #expect(project.plan.views.map(\.typeName) == ["Badge", "Page"])
        #expect(project.plan.skipped.map(\.declaration) == ["Selector.body"])
        let diagnostics = try SDKStandIn.typecheck(files(of: project, target: "App"))
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// A view reading an observed model and the environment: the thunk passes them as host tokens
    /// (`PatchHostToken` of PatchRender, §11), and compiles with the view.
    @Test func viewThunksPassingHostTokensCompile() throws {
        let source = """
            import SwiftUI
            @MainActor final class Model: ObservableObject {
                @Published var title = "t"
                var count: Int = 0
                var isOn = false
                var tint: Color = .blue
            }
            struct Screen: View {
                @ObservedObject var model: Model
                @Environment(\\.colorScheme) private var colorScheme
                var body: some View {
                    VStack {
                        Text(model.title)
                        Text("\\(model.count)")
                        if model.isOn { Text("on") }
                    }
                    .foregroundColor(colorScheme == .dark ? .white : model.tint)
                }
            }
            """
        let project = PreparedProject(targets: ["App": ["Views.swift": source]], appTarget: "App")
        let files = files(of: project, target: "App")
        // `colorScheme` is private: the thunk is in the section appended to the view's file.
        #expect(files[routingFile(of: "App")] == nil)
        let section = try #require(files["Views.swift"]?.components(separatedBy: PreparedNames.sectionBegin).last)
        #expect(section.contains("import PatchRender") && section.contains("tokens: { [\"") && section.contains(".string(model.title)"))
        #expect(project.plan.baseline.declarations.first { $0.id == "App:Screen.body" }?.tokens.count == 5)
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// A view with a native-only leaf between Text rows: the thunk passes the leaf as a slot
    /// (`slots:`, §5.1) next to its tokens, and compiles with the view.
    @Test func viewThunksPassingSlotsCompile() throws {
        let source = """
            import SwiftUI
            @MainActor final class Model: ObservableObject {
                @Published var title = "t"
            }
            struct PinMap: UIViewRepresentable {
                let pin: String
            }
            struct Place: View {
                @ObservedObject var model: Model
                let name: String
                var body: some View {
                    VStack {
                        Text(model.title)
                        PinMap(pin: name)
                            .padding(8)
                        Text("below")
                    }
                }
            }
            """
        let project = PreparedProject(targets: ["App": ["Views.swift": source]], appTarget: "App")
        let files = files(of: project, target: "App")
        let routing = try #require(files[routingFile(of: "App")])
        #expect(routing.contains("typeName: \"Place\", instance: self, slots: { [\"op_") && routing.contains(": { AnyView(PinMap(pin: name)) }] }, tokens: { [\"st_"))
        #expect(project.plan.baseline.declarations.first { $0.id == "App:Place.body" }?.tokens.map(\.kind) == [.slot, .string])
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// Statement and background slots (an environment action in a Button, a closure property, an
    /// event modifier and a presentation bound to the model): the thunk passes each as a native view
    /// capturing the view, and compiles with it.
    @Test func viewThunksPassingStatementSlotsCompile() throws {
        let source = """
            import SwiftUI
            @MainActor final class Model: ObservableObject {
                @Published var title = "t"
                @Published var showing = false
                func load() {}
            }
            struct Editor: View {
                @ObservedObject var model: Model
                @Environment(\\.dismiss) private var dismiss
                let onTap: () -> Void
                var body: some View {
                    VStack {
                        Text(model.title)
                        Button("Done") { dismiss() }
                        Button("Open", action: onTap)
                    }
                    .onAppear { model.load() }
                    .sheet(isPresented: $model.showing) { Text("Sheet") }
                }
            }
            """
        let project = PreparedProject(targets: ["App": ["Views.swift": source]], appTarget: "App")
        let files = files(of: project, target: "App")
        let section = try #require(files["Views.swift"]?.components(separatedBy: PreparedNames.sectionBegin).last, "`dismiss` is private: the thunk is in the view's file")
        for expression in ["Button(\"Done\") { dismiss() }", "Button(\"Open\", action: onTap)", "Color.clear.onAppear { model.load() }",
                           "Color.clear.sheet(isPresented: $model.showing) { Text(\"Sheet\") }"] {
            #expect(section.contains(": { AnyView(\(expression)) }"), "\(expression) in \(section)")
        }
        #expect(project.plan.baseline.declarations.first { $0.id == "App:Editor.body" }?.tokens.map(\.kind) == [.slot, .slot, .slot, .slot, .string])
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// The check is real: a thunk that calls the SDK the old way (no `returning:`) fails it.
    @Test func aThunkThatMisusesTheSDKFailsTheCheck() throws {
        let project = PreparedProject("enum Tax {\n    // @patchable\n    static func rate(_ region: String) -> Double { 0.2 }\n}\n")
        var files = files(of: project, target: "App")
        let routing = try #require(files[routingFile(of: "App")])
        files[routingFile(of: "App")] = routing.replacingOccurrences(of: ", returning: __PatchResult.self)", with: ")")
            .replacingOccurrences(of: "let __result = try?", with: "let __result: __PatchResult = try?")
        #expect(files[routingFile(of: "App")] != routing)
        let diagnostics = try #require(try SDKStandIn.typecheck(files, modules: ["PatchSDK"]))
        #expect(diagnostics.contains("missing argument for parameter 'returning'"))
    }
}
