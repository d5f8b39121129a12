import Foundation
import PatchBuild
@testable import PatchRuntime
import Testing
import WasmKit

/// The guest Foundation layer (templates/guest/Foundation*.swift) compiled by `build`'s pipeline and
/// run with `run`'s bridges: results are compared with Foundation on Linux for the same inputs.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct GuestFoundationTests {
    /// A guest module built from `files` (name → source) exporting `exports` and rendering `views`
    /// (type names), with its packed-JSON symbols by declaration id.
    static func build(_ files: [String: String], exports: [String], views: [String] = []) throws -> (module: [UInt8], symbols: [String: String]) {
        let sources = try GuestBuilder.scratch()
        for (name, text) in files { try text.write(to: sources.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let output = try GuestBuilder.scratch()
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources.path, exports: exports,
            views: views.map { GuestViewRequest(declarationID: "Foundation:\($0).body", typeName: $0, path: [$0]) },
            outputDirectory: output.path, toolchain: try Toolchain.discover()))
        guard result.manifest.unpatchable.isEmpty else {
            throw GuestBuilder.BuildFailure(description: "left native: " + result.manifest.unpatchable.map(\.description).joined(separator: "; "))
        }
        let module = [UInt8](try Data(contentsOf: output.appendingPathComponent("module.wasm")))
        return (module, Dictionary(uniqueKeysWithValues: result.manifest.exports.map { ($0.declarationID, $0.symbol) }))
    }

    /// The bridges a module imports, as `run` lists them; each must be served by the device SDK with
    /// the signature the module declares (sdk-contract §3).
    static func bridgeImports(_ module: [UInt8]) throws -> [String] {
        let declared = HostBridges.declaredFunctionImports(of: try parseWasm(bytes: module))
        #expect(HostBridges.unservedImports(declared, table: ServedImports.table(for: .iOS)).isEmpty)
        return declared.map(\.description)
    }

    static func call(_ guest: RuntimeSession, _ symbol: String?, _ input: String) throws -> String {
        let symbol = try #require(symbol)
        let output = try #require(try guest.callPacked(symbol, input: Array(input.utf8)).output)
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Date across the calling ABIs

    static let booking = """
        import Foundation

        struct Booking {
            var start: Date
            var nights: Int
        }

        func checkout(_ booking: Booking) -> Date {
            booking.start.addingTimeInterval(TimeInterval(booking.nights) * 86_400)
        }

        func secondsSince1970() -> Double {
            Date().timeIntervalSince1970
        }

        """

    static let stay = """
        import SwiftUI

        struct Stay: View {
            let arrival: Date

            var body: some View {
                Text("\\(Int(arrival.timeIntervalSince1970)) \\(Int(arrival.timeIntervalSinceReferenceDate))")
            }
        }

        """

    /// What the native side's thunk encodes and decodes (`callJSON`: JSONEncoder's defaults).
    struct Booking: Codable {
        var start: Date
        var nights: Int
    }

    struct Arguments: Encodable {
        var booking: Booking
    }

    struct Returned: Decodable {
        var value: Date
    }

    @Test func aDateCrossesCallJSONAsJSONEncoderWritesItAndAViewsInputsAsTheHostDoes() throws {
        let (module, symbols) = try Self.build(["Booking.swift": Self.booking, "Stay.swift": Self.stay],
                                               exports: ["checkout(_:)", "secondsSince1970()"], views: ["Stay"])
        let guest = try session(module)
        let booking = Booking(start: Date(timeIntervalSince1970: 1_700_000_000.25), nights: 3)
        let input = String(decoding: try JSONEncoder().encode(Arguments(booking: booking)), as: UTF8.self)
        let expected = booking.start.addingTimeInterval(3 * 86_400)
        func checkout() throws -> Date {
            let output = try Self.call(guest, symbols["checkout(_:)"], input)
            return try JSONDecoder().decode(Returned.self, from: Data(output.utf8)).value
        }
        #expect(try checkout() == expected)
        // A view's inputs carry seconds since 1970 (§5.4); a call after the render reads 2001 again.
        let render = try guest.runView("Stay", inputs: try #require(MessagePackValue.parseJSON(Array(#"{"arrival":1700000000}"#.utf8))), events: [])
        #expect(ViewOutline.render(render.render.tree.root) == #"text("1700000000 721692800")"#)
        #expect(try checkout() == expected)
        // `Date()` reads the device clock (`run`'s default: 2024-01-01T00:00:00Z).
        #expect(try Self.call(guest, symbols["secondsSince1970()"], "{}") == #"{"value":1704067200}"#)
        #expect(try Self.bridgeImports(module) == ["patch_host.now_unix_millis() -> i64"])
    }

    @Test func aModuleUsingNoneOfTheLayerImportsNoBridge() throws {
        let (module, _) = try Self.build(["Math.swift": "func add(_ a: Int, _ b: Int) -> Int { a + b }\n"], exports: ["add(_:_:)"])
        #expect(try Self.bridgeImports(module) == [])
    }
}
