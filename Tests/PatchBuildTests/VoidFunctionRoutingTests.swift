import Foundation
@testable import PatchBuild
import Testing

/// Functions and methods that return nothing are routed: the module performs their effects through
/// host bridges and answers `{}` (sdk-contract §2.4 leaves the bytes to the caller's codec; the
/// guest glue writes `{}` for a Void export); the thunk returns, or runs the original when the call fails.
@Suite(.serialized) struct VoidFunctionRoutingTests {
    static let console = """
        enum Console {
            // @patchable
            static func log(line: String) {
                print("native log: " + line)
            }
        }

        enum Lookup {
            // @patchable
            static func nickname(for name: String) -> String? {
                name == "Ada" ? "native Countess" : nil
            }
        }

        struct Greeter: Codable {
            var name: String
            // @patchable
            func announce(to guest: String) -> () {
                print("native: \\(name) greets \\(guest)")
            }
        }

        """

    /// The thunk of a Void function: a result struct that `{}` decodes into and the guest's `{"error": …}`
    /// (arguments it could not decode) does not, so the call's success alone decides, and the original
    /// runs when the module has no export or the call fails.
    @Test func aVoidStaticFunctionsThunkCallsTheModuleAndReturns() throws {
        let project = PreparedProject(Self.console, routing: .marked)
        #expect(project.plan.skipped.isEmpty, "\(project.plan.skipped)")
        #expect(project.plan.functions.map(\.export) == ["_pf_Console_log__line", "_pf_Greeter_announce__to", "_pf_Lookup_nickname__for"])
        let thunks = project.routingThunks
        let hash = try #require(thunks.firstMatch(of: /patch-function-sha256: ([0-9a-f]+)/)?.1)
        #expect(thunks.contains("""
            extension Console {
                // patch-function-sha256: \(hash)
                @_dynamicReplacement(for: log(line:))
                static func __patch_log(line: String) -> Void {
                    struct __PatchArguments: Encodable { let line: String }
                    struct __PatchResult: Decodable { enum CodingKeys: String, CodingKey { case error }; init(from decoder: any Decoder) throws { let container = try decoder.container(keyedBy: CodingKeys.self); if container.contains(.error) { throw DecodingError.dataCorruptedError(forKey: .error, in: container, debugDescription: "the module refused the arguments") } } }
                    if Patch.shared.hasFunction("_pf_Console_log__line"),
                       let _ = try? Patch.shared.callJSON("_pf_Console_log__line", __PatchArguments(line: line), returning: __PatchResult.self) {
                        return
                    }
                    return log(line: line)
                }
            }
            """), "\(thunks)")
        // A non-mutating method sends its receiver and reads nothing back.
        #expect(thunks.contains("func __patch_announce(to guest: String) -> () {"), "\(thunks)")
        #expect(thunks.contains("__PatchArguments(__self: __PatchSelf(name: self.name), guest: guest), returning: __PatchResult.self) {\n            return\n"), "\(thunks)")
    }

    /// `Never` still cannot be routed: the module's call returns, the original would not.
    @Test func aNeverReturningFunctionIsSkippedWithItsReason() {
        let project = PreparedProject("enum Fail {\n    // @patchable\n    static func stop(code: Int) -> Never { fatalError() }\n}\n", routing: .marked)
        #expect(project.plan.functions.isEmpty)
        #expect(project.plan.skipped.map(\.reason) == ["the function never returns (`Never`); a module call must return to its caller"])
    }

    /// Prepared, compiled against the SDK stand-in and run: with the module's `{}` the native bodies do
    /// not run (the module performed the effect); with an answer that is not JSON, or the guest's
    /// `{"error": …}`, they do. So does an optional result's: `{"error": …}` is no `nil` result.
    @Test(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
    func voidThunksRunTheModuleOrFallBackToTheOriginal() throws {
        let main = """
            import PatchSDK

            func exercise(_ label: String) {
                print(label)
                Console.log(line: "hello")
                Greeter(name: "Ada").announce(to: "Bob")
                print(Lookup.nickname(for: "Ada") ?? "nil")
            }

            exercise("no module:")
            Patch.shared.standInFunctionResults = ["_pf_Console_log__line": "{}", "_pf_Greeter_announce__to": "{}", "_pf_Lookup_nickname__for": #"{"value":null}"#]
            exercise("module:")
            Patch.shared.standInFunctionResults = ["_pf_Console_log__line": "{", "_pf_Greeter_announce__to": "not json", "_pf_Lookup_nickname__for": "{"]
            exercise("answers that are not JSON:")
            let refused = #"{"error":"expected a JSON object of arguments"}"#
            Patch.shared.standInFunctionResults = ["_pf_Console_log__line": refused, "_pf_Greeter_announce__to": refused, "_pf_Lookup_nickname__for": refused]
            exercise("the guest refused the arguments:")
            print("calls:")
            for call in Patch.shared.standInCalls { print(call) }

            """
        let project = PreparedProject(targets: ["App": ["Console.swift": Self.console, "main.swift": main]], routing: .marked)
        var files: [String: [UInt8]] = [:]
        for (path, text) in project.files { files[path] = Array(text.utf8) }
        let result = try SDKStandIn.compileAndRun(files)
        #expect(result.status == 0)
        #expect(result.output == """
            no module:
            native log: hello
            native: Ada greets Bob
            native Countess
            module:
            nil
            answers that are not JSON:
            native log: hello
            native: Ada greets Bob
            native Countess
            the guest refused the arguments:
            native log: hello
            native: Ada greets Bob
            native Countess
            calls:
            _pf_Console_log__line {"line":"hello"}
            _pf_Greeter_announce__to {"guest":"Bob","self":{"name":"Ada"}}
            _pf_Lookup_nickname__for {"name":"Ada"}
            _pf_Console_log__line {"line":"hello"}
            _pf_Greeter_announce__to {"guest":"Bob","self":{"name":"Ada"}}
            _pf_Lookup_nickname__for {"name":"Ada"}
            _pf_Console_log__line {"line":"hello"}
            _pf_Greeter_announce__to {"guest":"Bob","self":{"name":"Ada"}}
            _pf_Lookup_nickname__for {"name":"Ada"}

            """)
    }
}
