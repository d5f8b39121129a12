@testable import PatchBuild
import PatchManifest
import Testing

/// What `prepare` routes of struct and enum instance methods, how their thunks send `self`, and why it
/// skips the others (docs/prepare.md "Instance methods").
@Suite struct InstanceMethodRoutingTests {
    @Test func aMethodSendsAMirrorOfTheStoredPropertiesAsSelf() {
        let source = """
            struct Line: Codable { var cents: Int }

            struct Cart {
                var lines: [Line]
                var discount = 0, `default`: Bool
                let label = "cart"
                var count: Int { lines.count }
                static var shared = 0

                // @patchable
                func total(plus extra: Int) -> Int { 0 }
                // @patchable
                mutating func reset() {}
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.userFile.contains("    dynamic func total(plus extra: Int) -> Int { 0 }\n"))
        #expect(project.userFile.contains("    mutating dynamic func reset() {}\n"))
        let hash = { (id: String) in project.plan.baseline.declarations.first { $0.id == id }?.contentHash ?? "?" }
        // Computed and static properties are not part of the mirror; a `let` is sent but never written back.
        #expect(project.routingThunks == """
            extension Cart {
                // patch-function-sha256: \(hash("App:Cart.total(plus:Int)"))
                @_dynamicReplacement(for: total(plus:))
                func __patch_total(plus extra: Int) -> Int {
                    struct __PatchSelf: Encodable { let lines: [Line]; let discount: Int; let `default`: Bool; let label: String }
                    struct __PatchArguments: Encodable { let __self: __PatchSelf; let extra: Int; enum CodingKeys: String, CodingKey { case __self = "self", extra } }
                    struct __PatchResult: Decodable { let value: Int }
                    if Patch.shared.hasFunction("_pf_Cart_total__plus"),
                       let __result = try? Patch.shared.callJSON("_pf_Cart_total__plus", __PatchArguments(__self: __PatchSelf(lines: self.lines, discount: self.discount, default: self.`default`, label: self.label), extra: extra), returning: __PatchResult.self) {
                        return __result.value
                    }
                    return total(plus: extra)
                }
            }

            extension Cart {
                // patch-function-sha256: \(hash("App:Cart.reset()"))
                @_dynamicReplacement(for: reset())
                mutating func __patch_reset() -> Void {
                    struct __PatchSelf: Codable { let lines: [Line]; let discount: Int; let `default`: Bool; let label: String }
                    struct __PatchArguments: Encodable { let __self: __PatchSelf; enum CodingKeys: String, CodingKey { case __self = "self" } }
                    struct __PatchResult: Decodable { let __self: __PatchSelf; enum CodingKeys: String, CodingKey { case __self = "self" } }
                    if Patch.shared.hasFunction("_pf_Cart_reset__"),
                       let __result = try? Patch.shared.callJSON("_pf_Cart_reset__", __PatchArguments(__self: __PatchSelf(lines: self.lines, discount: self.discount, default: self.`default`, label: self.label)), returning: __PatchResult.self) {
                        self.lines = __result.__self.lines
                        self.discount = __result.__self.discount
                        self.`default` = __result.__self.`default`
                        return
                    }
                    return reset()
                }
            }

            """)
        assertParses(project.routingFile ?? "", "routing file")
    }

    @Test func aComputedPropertyIsRoutedByItsGetter() {
        let source = """
            enum Tax {
                // @patchable
                static var rate: Double { 0.2 }
            }

            struct Cart {
                var cents: [Int]
                // @patchable
                var total: Int {
                    cents.reduce(0, +)
                }
                // @patchable
                var first: Int {
                    get { cents[0] }
                    set { cents[0] = newValue }
                }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.userFile.contains("    static dynamic var rate: Double { 0.2 }\n"))
        #expect(project.userFile.contains("    dynamic var total: Int {\n"))
        // A setter is routed with its getter (SetterRuntimeTests runs one).
        #expect(project.plan.functions.map(\.key) == ["Cart.first", "Cart.total", "Tax.rate"])
        #expect(project.plan.functions.map(\.export) == ["_pf_Cart_first__get", "_pf_Cart_total__get", "_pf_Tax_rate__get"])
        #expect(project.plan.skipped.isEmpty)
        let hash = project.plan.baseline.declarations.first { $0.id == "App:Cart.total" }?.contentHash ?? "?"
        #expect(project.routingThunks.contains("""
            extension Cart {
                // patch-function-sha256: \(hash)
                @_dynamicReplacement(for: total)
                var __patch_total: Int {
                    struct __PatchSelf: Encodable { let cents: [Int] }
                    struct __PatchArguments: Encodable { let __self: __PatchSelf; enum CodingKeys: String, CodingKey { case __self = "self" } }
                    struct __PatchResult: Decodable { let value: Int }
                    if Patch.shared.hasFunction("_pf_Cart_total__get"),
                       let __result = try? Patch.shared.callJSON("_pf_Cart_total__get", __PatchArguments(__self: __PatchSelf(cents: self.cents)), returning: __PatchResult.self) {
                        return __result.value
                    }
                    return total
                }
            }
            """), "\(project.routingThunks)")
        #expect(project.routingThunks.contains("    @_dynamicReplacement(for: rate)\n    static var __patch_rate: Double {\n"))
        // A change of the getter is a candidate of the module, named as the guest exports it.
        let edited = PreparedProject(source.replacingOccurrences(of: "cents.reduce(0, +)", with: "cents.reduce(1, +)"), routing: .marked)
        let changes = ChangeDetector.compare(baseline: project.plan.baseline, current: edited.plan, shippedExports: Set(project.plan.functions.map(\.export)))
        #expect(changes.map(\.id) == ["App:Cart.total"] && changes.first?.status == .patched, "\(changes)")
        #expect(GuestExportName(declarationID: "Cart.total")?.jsonSymbol == "_pf_Cart_total__get")
    }

    @Test func anInitializerTakesTheModulesStoredValuesAfterTheOriginal() {
        let source = """
            struct Client {
                var baseURL: String
                let timeout: Int

                // @patchable
                init(host: String, _ port: Int) {
                    baseURL = "https://\\(host):\\(port)"
                    timeout = 30
                }
                // @patchable
                init?(path: String) { return nil }
                // @patchable
                init() { self.init(host: "localhost", 80) }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.userFile.contains("    dynamic init(host: String, _ port: Int) {\n"))
        #expect(project.plan.functions.map(\.export) == ["_pf_Client_init__host__", "_pf_Client_init__path"])
        let skip = project.plan.skipped.map { "\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skip.count == 1 && skip[0].hasPrefix("13 Client.init(): an initializer without parameters"), "\(skip)")
        let hash = project.plan.baseline.declarations.first { $0.id == "App:Client.init(host:String,_:Int)" }?.contentHash ?? "?"
        #expect(project.routingThunks.contains("""
            extension Client {
                // patch-function-sha256: \(hash)
                @_dynamicReplacement(for: init(host:_:))
                init(__patch_host host: String, _ port: Int) {
                    struct __PatchSelf: Decodable { let baseURL: String; let timeout: Int }
                    struct __PatchArguments: Encodable { let host: String; let port: Int }
                    struct __PatchResult: Decodable { let value: __PatchSelf }
                    self.init(host: host, port)
                    if Patch.shared.hasFunction("_pf_Client_init__host__"),
                       let __result = try? Patch.shared.callJSON("_pf_Client_init__host__", __PatchArguments(host: host, port: port), returning: __PatchResult.self) {
                        self.baseURL = __result.value.baseURL
                    }
                }
            }
            """), "\(project.routingThunks)")
    }

    /// A failable initializer's module says nil with `{"value": null}` (key required, so the guest's
    /// `{"error": …}` is no nil); where the original fails, the replacement fails before asking it.
    @Test func aFailableInitializerReturnsNilWhenTheModuleSaysNull() {
        let source = """
            struct Slug {
                var text: String

                init?(title: String) {
                    guard !title.isEmpty else { return nil }
                    text = title
                }
                init?(code: Int) throws {
                    text = String(code)
                }
                init!(raw: String) { text = raw }
            }

            """
        let project = PreparedProject(source)
        #expect(project.userFile.contains("    dynamic init?(title: String) {\n"))
        #expect(project.plan.functions.map(\.export) == ["_pf_Slug_init__code", "_pf_Slug_init__title"])
        let skip = project.plan.skipped.map { "\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skip == ["11 Slug.init(raw:): implicitly unwrapped failable initializers (`init!`) are not routed; write `init?`"], "\(skip)")
        let hash = project.plan.baseline.declarations.first { $0.id == "App:Slug.init(title:String)" }?.contentHash ?? "?"
        #expect(project.routingThunks.contains("""
                // patch-function-sha256: \(hash)
                @_dynamicReplacement(for: init(title:))
                init?(__patch_title title: String) {
                    struct __PatchSelf: Decodable { let text: String }
                    struct __PatchArguments: Encodable { let title: String }
                    struct __PatchResult: Decodable { let value: __PatchSelf?; enum CodingKeys: String, CodingKey { case value }; init(from decoder: any Decoder) throws { value = try decoder.container(keyedBy: CodingKeys.self).decode((__PatchSelf?).self, forKey: .value) } }
                    self.init(title: title)
                    if Patch.shared.hasFunction("_pf_Slug_init__title"),
                       let __result = try? Patch.shared.callJSON("_pf_Slug_init__title", __PatchArguments(title: title), returning: __PatchResult.self) {
                        guard let __value = __result.value else { return nil }
                        self.text = __value.text
                    }
                }
            """), "\(project.routingThunks)")
        // Throwing too: the module's throw or its nil.
        #expect(project.routingThunks.contains("""
                    try self.init(code: code)
                    if Patch.shared.hasFunction("_pf_Slug_init__code"),
                       let __result = try? Patch.shared.callJSON("_pf_Slug_init__code", __PatchArguments(code: code), returning: __PatchResult.self) {
                        guard let __value = try __result.value.get() else { return nil }
                        self.text = __value.text
                    }
            """), "\(project.routingThunks)")
        #expect(project.routingThunks.contains("    let value: Result<__PatchSelf?, __PatchThrown>\n"), "\(project.routingThunks)")
    }

    @Test func aCodableEnumTravelsAsItself() {
        let project = PreparedProject("""
            enum Size: String, Codable {
                case small, large
                // @patchable
                mutating func toggle() { self = .large }
            }

            """)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.routingThunks.contains("""
                    struct __PatchArguments: Encodable { let __self: Size; enum CodingKeys: String, CodingKey { case __self = "self" } }
                    struct __PatchResult: Decodable { let __self: Size; enum CodingKeys: String, CodingKey { case __self = "self" } }
            """))
        #expect(project.routingThunks.contains("__PatchArguments(__self: self)"))
        #expect(project.routingThunks.contains("            self = __result.__self\n            return\n"))
    }

    @Test func methodsWhoseReceiverCannotTravelAreSkippedWithTheirReason() {
        let models = """
            struct Wrapped {
                @Clamped var level: Int
                // @patchable (mutating: its new `self` needs the whole value; a reading method gets a copy)
                mutating func read() -> Int { 0 }
            }
            struct Lazy {
                lazy var cache: [Int] = []
                // @patchable
                func read() -> Int { 0 }
            }
            struct Inferred {
                var start = Date(timeIntervalSince1970: 0)
                // @patchable
                func read() -> Int { 0 }
            }
            struct Conditional {
                #if DEBUG
                var trace: [String]
                #endif
                // @patchable
                func read() -> Int { 0 }
            }
            struct Opaque {
                var handle: Handle
                // @patchable
                func read() -> Int { 0 }
            }
            final class Handle {}
            actor Store {
                var count = 0
                // @patchable
                func read() -> Int { count }
            }
            enum Plain {
                case one(Handle)
                // @patchable
                func read() -> Int { 0 }
            }
            struct Secret {
                private var pin: Int
                // @patchable
                func log() -> Never { fatalError() }
            }
            """
        let elsewhere = """
            extension Secret {
                // @patchable
                func read() -> Int { pin }
            }
            extension String {
                // @patchable
                func shout() -> String { uppercased() }
            }
            """
        let project = PreparedProject(targets: ["App": ["Models.swift": models, "Other.swift": elsewhere]])
        let skipped = project.plan.skipped.map { "\($0.file):\($0.line) \($0.declaration): \($0.reason)" }
        #expect(skipped.count == 10, "\(skipped.joined(separator: "\n"))")
        let expected: [(String, String)] = [
            ("Models.swift:4 Wrapped.read()", "`Wrapped` (Sources/App/Models.swift:1): stored property `level` has the attribute `@Clamped`"),
            ("Models.swift:9 Lazy.read()", "stored property `cache` is `lazy` (reading it would run its initializer) (line 7)"),
            ("Models.swift:14 Inferred.read()", "stored property `start` has no written type"),
            ("Models.swift:21 Conditional.read()", "stored properties under `#if`"),
            // A struct or enum that is not Codable travels through its value mirror; a class does not.
            ("Models.swift:26 Opaque.read()", "the receiver's stored property `handle` (Sources/App/Models.swift:24): `Handle` (Sources/App/Models.swift:28) is not Codable and is a class"),
            ("Models.swift:32 Store.read()", "instance methods of an actor are not routed"),
            ("Models.swift:37 Plain.read()", "the receiver (`self`): `Plain` (Sources/App/Models.swift:34)'s case `one`: `Handle` (Sources/App/Models.swift:28) is not Codable and is a class"),
            ("Models.swift:42 Secret.log()", "the function never returns"),
            ("Other.swift:3 Secret.read()", "the receiver's stored property `pin` is private to Sources/App/Models.swift:40"),
            ("Other.swift:7 String.shout()", "an instance method of `String`, which target App does not declare"),
        ]
        for (place, reason) in expected {
            #expect(skipped.contains { $0.hasPrefix("Sources/App/" + place + ":") && $0.contains(reason) }, "\(place): \(reason)\n\(skipped.joined(separator: "\n"))")
        }
    }
}
