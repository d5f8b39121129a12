@testable import PatchBuild
import Testing

/// How `prepare` routes functions whose parameters, results or receivers are project structs and
/// enums that do not declare Codable (value mirrors, docs/prepare.md "Values that are not Codable"),
/// and why it skips those no mirror can carry.
@Suite struct ValueMirrorRoutingTests {
    @Test func aNonCodableStructParameterAndEnumResultTravelThroughLocalMirrors() {
        let source = """
            enum Mode { case fast, `default` }
            enum Level: Int { case low = 1, high }
            struct Tag: Codable { var name: String }
            struct Config {
                var mode: Mode
                var tags: [Tag]
                var levels: [String: Level]?
                let version = 2
            }

            // @patchable
            func tuned(_ config: Config) -> Mode { .fast }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        let hash = project.plan.baseline.declarations.first { $0.id == "App:tuned(_:Config)" }?.contentHash ?? "?"
        // `Mode` is sent inside `Config` and decoded as the result: its mirror is Codable; `Config`'s
        // only Encodable. `Tag` is Codable and travels as itself; `Level` as its raw value.
        #expect(project.routingThunks == """
            // patch-function-sha256: \(hash)
            @_dynamicReplacement(for: tuned(_:))
            func __patch_tuned(_ config: Config) -> Mode {
                enum __PatchValue_Mode: Codable { case fast; case `default`; init(_ __v: Mode) { switch __v { case .fast: self = .fast; case .`default`: self = .`default` } }; var __patchValue: Mode { switch self { case .fast: return .fast; case .`default`: return .`default` } } }
                enum __PatchValue_Level: Int, Encodable { case low = 1; case high; init(_ __v: Level) { switch __v { case .low: self = .low; case .high: self = .high } } }
                struct __PatchValue_Config: Encodable { let mode: __PatchValue_Mode; let tags: [Tag]; let levels: [String: __PatchValue_Level]?; let version: Int; init(_ __v: Config) { self.mode = __PatchValue_Mode(__v.mode); self.tags = __v.tags; self.levels = __v.levels.map { $0.mapValues { __PatchValue_Level($0) } }; self.version = __v.version } }
                struct __PatchArguments: Encodable { let config: __PatchValue_Config }
                struct __PatchResult: Decodable { let value: __PatchValue_Mode }
                if Patch.shared.hasFunction("_pf_tuned___"),
                   let __result = try? Patch.shared.callJSON("_pf_tuned___", __PatchArguments(config: __PatchValue_Config(config)), returning: __PatchResult.self) {
                    return __result.value.__patchValue
                }
                return tuned(config)
            }

            """)
    }

    @Test func aNonCodableEnumReceiverIsSentAndWrittenBackThroughItsMirror() {
        let source = """
            enum Mode {
                case fast, slow

                // @patchable
                mutating func toggle() { self = self == .fast ? .slow : .fast }
            }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        let thunks = project.routingThunks
        #expect(thunks.contains("        enum __PatchValue_Mode: Codable { case fast; case slow; init(_ __v: Mode) {"), "\(thunks)")
        #expect(thunks.contains("struct __PatchArguments: Encodable { let __self: __PatchValue_Mode; enum CodingKeys"), "\(thunks)")
        #expect(thunks.contains("__PatchArguments(__self: __PatchValue_Mode(self))"), "\(thunks)")
        #expect(thunks.contains("            self = __result.__self.__patchValue\n"), "\(thunks)")
    }

    @Test func aMirrorThatReadsAPrivatePropertyGoesInTheTypesFile() {
        let project = PreparedProject(targets: ["App": [
            "Secret.swift": """
                struct Secret {
                    private var code: Int
                    var name: String
                }

                // @patchable
                func reveal(_ secret: Secret) -> String { "" }

                """,
            "Other.swift": """
                // @patchable
                func hide(_ secret: Secret) -> Int { 0 }

                """,
        ]], routing: .marked)
        #expect(project.plan.skipped.map(\.declaration) == ["hide(_:)"])
        #expect(project.plan.skipped.first?.reason.contains("its stored property `code` is private to Sources/App/Secret.swift:2") == true, "\(project.plan.skipped)")
        #expect(project.files["Sources/App/Secret.swift"]?.contains("self.code = __v.code") == true)
    }

    /// Food Truck's `Timeframe` lives in FoodTruckKit: a `public` enum of another target has a mirror
    /// (its cases are public); a struct does not (its memberwise initializer is internal).
    @Test func aPublicEnumOfAnotherTargetTravelsThroughItsMirror() {
        let kit = "public enum Timeframe: String { case today, week }\npublic struct Donut { public var name: String }\n"
        let app = """
            import Kit
            // @patchable
            func label(for timeframe: Timeframe) -> String { "" }
            // @patchable
            func first() -> Donut? { nil }

            """
        let project = PreparedProject(targets: ["Kit": ["Kit.swift": kit], "App": ["App.swift": app]], appTarget: "App", routing: .marked)
        #expect(project.plan.functions.map(\.key) == ["label(for:)"])
        #expect(project.plan.skipped.map(\.declaration) == ["first()"])
        #expect(project.plan.skipped.first?.reason == "the result type `Donut?`: `Donut` is not Decodable; declare `Donut: Codable` (in the type or an extension) or patch a function that takes and returns Codable values")
        let routing = project.files[Preparer.routingFilePath(sourceRoot: "Sources/App")] ?? ""
        #expect(routing.contains("enum __PatchValue_Timeframe: String, Encodable { case today; case week; init(_ __v: Timeframe) {"), "\(routing)")
    }

    /// Enchanted's `CompletionsPromptMode` is declared under `#if os(macOS)`, and so is its `next`.
    @Test func aTypeUnderIfTravelsInFunctionsUnderTheSameCondition() {
        let source = """
            #if os(macOS)
            enum Mode {
                case fast, slow

                // @patchable
                func next() -> Mode { self == .fast ? .slow : .fast }
            }
            #endif

            // @patchable
            func describe(_ mode: Mode) -> String { "" }

            """
        let project = PreparedProject(source, routing: .marked)
        #expect(project.plan.functions.map(\.key) == ["Mode.next()"])
        #expect(project.plan.skipped.first?.reason == "parameter type `Mode`: `Mode` (Sources/App/View.swift:2) is not Codable and is declared under `#if (os(macOS))`, which the function is not")
        #expect(project.routingThunks.hasPrefix("#if (os(macOS))\nextension Mode {"), "\(project.routingThunks)")
    }

    @Test func valuesNoMirrorCanCarryAreSkippedWithTheirReason() {
        let source = """
            struct Built {
                var count: Int
                init(count: Int) { self.count = count }
            }
            indirect enum Tree { case leaf, node(Tree) }
            enum Flag {
                case on
                #if DEBUG
                case debug
                #endif
            }
            enum Mode { case fast }

            // @patchable
            func make() -> Built { Built(count: 0) }
            // @patchable
            func send(_ built: Built) {}
            // @patchable
            func depth(_ tree: Tree) -> Int { 0 }
            // @patchable
            func flip(_ flag: Flag) {}
            // @patchable
            func counts(_ modes: [Mode: Int]) {}
            // @patchable
            func unique(_ modes: Set<Mode>) {}

            """
        let project = PreparedProject(source, routing: .marked)
        let reasons = Dictionary(project.plan.skipped.map { ($0.declaration, $0.reason) }, uniquingKeysWith: { $1 })
        // Sending needs no memberwise initializer: only decoding builds the value.
        #expect(project.plan.functions.map(\.key) == ["send(_:)"])
        #expect(reasons["make()"] == "the result type `Built`: `Built` (Sources/App/View.swift:1) is not Codable and declares an initializer, so it has no memberwise one for the thunk to build the module's value with; declare `Built: Codable`")
        #expect(reasons["depth(_:)"] == "parameter type `Tree`: `Tree` (Sources/App/View.swift:5)'s case `node`: `Tree` (Sources/App/View.swift:5) is not Codable and contains itself, which a mirror cannot copy; declare `Tree: Codable`")
        #expect(reasons["flip(_:)"] == "parameter type `Flag`: `Flag` (Sources/App/View.swift:6) is not Codable and a mirror cannot copy it: it has cases under `#if`, which a mirror cannot list for every configuration (line 8)")
        #expect(reasons["counts(_:)"] == "parameter type `[Mode: Int]`: `[Mode: Int]`: a dictionary's key must be Codable itself (a mirrored key would be written as an array)")
        #expect(reasons["unique(_:)"] == "parameter type `Set<Mode>`: `Set<Mode>`: only an Array, Optional or Dictionary value can hold a type that is not Codable")
    }
}
