@testable import PatchBuild
import PatchManifest
import Testing

@Suite struct FunctionRoutingTests {
    @Test func markedStaticFunctionGetsDynamicAndAReplacement() {
        let source = """
            import Foundation

            enum Pricing {
                /// The total.
                // @patchable
                public static func total(of cents: Int, _ quantity: Int) throws -> Int {
                    cents * quantity
                }
            }

            """
        let project = PreparedProject(source)
        #expect(project.userFile == source.replacingOccurrences(of: "public static func total", with: "public static dynamic func total"))
        let hash = project.plan.baseline.declarations.first { $0.id == "App:Pricing.total(of:Int,_:Int)" }?.contentHash ?? "?"
        #expect(project.routingThunks == """
            extension Pricing {
                // patch-function-sha256: \(hash)
                @_dynamicReplacement(for: total(of:_:))
                static func __patch_total(of cents: Int, _ quantity: Int) throws -> Int {
                    struct __PatchArguments: Encodable { let cents: Int; let quantity: Int }
                    struct __PatchThrown: Error, Decodable, CustomStringConvertible { let type: String; let value: String; var description: String { "\\(type) thrown by the patch: \\(value)" } }
                    struct __PatchResult: Decodable {
                        let value: Result<Int, __PatchThrown>
                        enum CodingKeys: String, CodingKey { case value, thrown }
                        init(from decoder: any Decoder) throws {
                            let container = try decoder.container(keyedBy: CodingKeys.self)
                            value = try container.decodeIfPresent(__PatchThrown.self, forKey: .thrown).map { .failure($0) } ?? .success(try container.decode(Int.self, forKey: .value))
                        }
                    }
                    if Patch.shared.hasFunction("_pf_Pricing_total__of__"),
                       let __result = try? Patch.shared.callJSON("_pf_Pricing_total__of__", __PatchArguments(cents: cents, quantity: quantity), returning: __PatchResult.self) {
                        return try __result.value.get()
                    }
                    return try total(of: cents, quantity)
                }
            }

            """)
        // Function-only targets import PatchSDK and the file's own imports, never SwiftUI.
        #expect(project.routingFile?.contains("import Foundation\nimport PatchSDK\n") == true)
        #expect(project.routingFile?.contains("SwiftUI") == false)
        #expect(project.plan.functions.map(\.export) == ["_pf_Pricing_total__of__"])
        assertParses(project.routingFile ?? "", "routing file")
    }

    @Test func freeFunctionListedInConfigIsRoutedWithoutMarker() {
        let project = PreparedProject("func greeting(for name: String) -> String { \"Hi \\(name)\" }\n",
                                      routing: RoutingSelection(mode: .marked, patchableFunctions: ["greeting(for:)"]))
        #expect(project.userFile == "dynamic func greeting(for name: String) -> String { \"Hi \\(name)\" }\n")
        #expect(project.routingThunks.hasPrefix("// patch-function-sha256: "))
        #expect(project.routingThunks.contains("@_dynamicReplacement(for: greeting(for:))\nfunc __patch_greeting(for name: String) -> String {"))
    }

    @Test func unsupportedFunctionsAreSkippedWithReasons() {
        let source = """
            struct Cart {
                // @patchable
                static func stop(_ line: String) -> Never { fatalError(line) }
                // @patchable
                static func map<T>(_ value: T) -> T { value }
                // @patchable
                mutating func fetch() async -> Int { 0 }
                // @patchable
                static func apply(_ transform: (Int) -> Int) -> Int { transform(1) }
                // @patchable
                static func bump(_ value: inout Int) -> Int { value }
            }
            """
        let project = PreparedProject(source)
        #expect(project.userFile == source)
        let reasons = project.plan.skipped.map(\.reason)
        #expect(reasons.count == 5)
        #expect(reasons[0].contains("never returns"))
        #expect(reasons[1].contains("generic"))
        #expect(reasons[2].contains("async"))
        #expect(reasons[3].contains("function type"))
        #expect(reasons[4].contains("inout"))
    }
}
