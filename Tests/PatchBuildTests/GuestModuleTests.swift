import Foundation
import PatchBuild
import PatchManifest
import Testing

/// End to end: fixture sources → guest module → executed in wasmtime through the packed JSON ABI,
/// exactly as the SDK's `callJSON` calls it (patch_malloc, write, call, read packed result, free).
@Suite struct GuestModuleTests {
    static let patchableExports = [
        "PriceCalculator.total(items:discount:)",
        "formatPrice(_:currency:)",
        "Checkout.Validator.isValid(_:)",
        "Checkout.Validator.validate(_:)",
        "summarize(_:labels:note:)",
        "add(_:_:)",
        "clamp(_:lower:upper:)",
        "isEven(_:)",
        "ratio(_:_:)",
    ]
    static let unpatchableExports = [
        "PriceCalculator.receiptDate(for:)",
        "fetchLimit()",
        "bump(_:)",
        "lookupMissing(_:)",
        "reset(_:)",
        "nowhere(_:)",
    ]

    /// One build of the fixture app shared by the tests below (building takes seconds).
    static let fixture: Result<(GuestBuildResult, String), GuestHarnessError> = {
        do {
            let toolchain = try Toolchain.discover()
            let output = try GuestHarness.temporaryDirectory("fixture")
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: GuestHarness.fixtureApp, exports: patchableExports + unpatchableExports,
                outputDirectory: output, toolchain: toolchain))
            return .success((result, output))
        } catch {
            return .failure(GuestHarnessError(description: "fixture build failed: \(error)"))
        }
    }()

    private func built() throws -> (GuestBuildResult, String) {
        try Self.fixture.get()
    }

    @Test func pricingWithStructsEnumsOptionalsAndArrays() throws {
        let (_, output) = try built()
        let outputs = try GuestHarness.call(module: output, [
            ("_pf_PriceCalculator_total__items_discount",
             #"{"items":[{"name":"Tea","cents":250,"quantity":2},{"name":"Mug","cents":1000,"category":"merchandise"}],"discount":{"percent":{"_0":10}}}"#),
            ("_pf_PriceCalculator_total__items_discount",
             #"{"items":[{"name":"Cake","cents":300,"quantity":1,"category":null}],"discount":{"fixed":{"cents":50,"reason":"loyalty"}}}"#),
            ("_pf_PriceCalculator_total__items_discount", #"{"items":[],"discount":{"none":{}}}"#),
            ("_pf_PriceCalculator_total__items_discount", #"{"items":[{"name":"x","cents":1,"category":"bogus"}],"discount":{"none":{}}}"#),
            ("_pf_PriceCalculator_total__items_discount", #"{"discount":{"none":{}}}"#),
        ])
        // (500 + 2000) - 10% = 2250, + 8% tax = 2430.
        #expect(outputs[0] == #"{"value":2430}"#)
        // 300 - 50 = 250, + 8% = 270.
        #expect(outputs[1] == #"{"value":270}"#)
        #expect(outputs[2] == #"{"value":0}"#)
        #expect(outputs[3].hasPrefix(#"{"error":"unknown raw value for Category"#))
        #expect(outputs[4] == #"{"error":"expected an array (key 'items')"}"#)
    }

    @Test func stringFormatting() throws {
        let (_, output) = try built()
        let outputs = try GuestHarness.call(module: output, [
            ("_pf_formatPrice____currency", #"{"cents":1250,"currency":"EUR"}"#),
            ("_pf_formatPrice____currency", #"{"cents":-5,"currency":"CHF"}"#),
            ("_pf_formatPrice____currency", #"{"cents":7,"currency":"\u0055SD"}"#),
        ])
        #expect(outputs == [#"{"value":"€12.50"}"#, #"{"value":"-CHF 0.05"}"#, #"{"value":"$0.07"}"#])
    }

    @Test func validationWithNestedTypesReceiverAndPayloadEnums() throws {
        let (_, output) = try built()
        let outputs = try GuestHarness.call(module: output, [
            ("_pf_Checkout_Validator_isValid___", #"{"form":{"email":"a@b.c","age":30,"country":"DE"}}"#),
            ("_pf_Checkout_Validator_isValid___", #"{"form":{"email":"nobody","age":30}}"#),
            ("_pf_Checkout_Validator_validate___",
             #"{"self":{"minimumAge":21,"allowedCountries":["FR"]},"form":{"email":"x","age":20,"country":"DE","tags":["a"]}}"#),
        ])
        #expect(outputs[0] == #"{"value":true}"#)
        #expect(outputs[1] == #"{"value":false}"#)
        #expect(outputs[2] == #"{"value":[{"missingEmail":{}},{"tooYoung":{"minimum":21}},{"unsupportedCountry":{"_0":"DE"}}]}"#)
    }

    @Test func everyValueShapeRoundTrips() throws {
        let (_, output) = try built()
        let outputs = try GuestHarness.call(module: output, [
            ("_pf_summarize____labels_note", #"{"values":[3,-1,10],"labels":{"b":2,"a":1},"note":"n"}"#),
            ("_pf_summarize____labels_note", #"{"values":[],"labels":{}}"#),
            ("_pf_ratio_____", #"{"a":1,"b":3}"#),
            ("_pf_ratio_____", #"{"a":5.0,"b":2}"#),
            ("_pf_ratio_____", #"{"a":1,"b":0}"#),
            ("_pf_ratio_____", #"{"a":1e21,"b":1}"#),
            ("_pf_add_____", #"{"a":9223372036854775807,"b":1}"#),
            ("_pf_isEven___", #"{"value":4}"#),
            ("_pf_isEven___", #"{"value":4294967296}"#),
            ("_pf_isEven___", "not json"),
        ])
        // Dictionary keys come out sorted; a nil Optional is omitted, as JSONEncoder does.
        #expect(outputs[0] == #"{"value":{"count":3,"mean":4,"largest":10,"labels":{"a":1,"b":2},"flags":[true,false,true],"nested":[[3,-1,10],[1]]}}"#)
        #expect(outputs[1] == #"{"value":{"count":0,"mean":0,"labels":{},"flags":[],"nested":[[],[]]}}"#)
        #expect(outputs[2] == #"{"value":0.3333333333333333}"#)
        #expect(outputs[3] == #"{"value":2.5}"#)
        #expect(outputs[4] == #"{"error":"a Double result is not finite; JSON cannot represent it"}"#)
        #expect(outputs[5] == #"{"value":1e+21}"#)
        #expect(outputs[6] == #"{"value":-9223372036854775808}"#)
        #expect(outputs[7] == #"{"value":true}"#)
        #expect(outputs[8] == #"{"error":"integer out of range for the wasm32 guest (key 'value')"}"#)
        #expect(outputs[9] == #"{"error":"invalid JSON literal"}"#)
    }

    /// The reader validates the whole input before anything is decoded and then reads members in
    /// place: escapes, skipped members of every kind, and each kind of malformed input.
    @Test func inputIsValidatedAndDecodedInPlace() throws {
        let (_, output) = try built()
        let export = "_pf_formatPrice____currency"
        let cases: [(input: String, output: String)] = [
            (#" {"currency" : "E\u0055R" , "cents" : 1250 } "#, #"{"value":"€12.50"}"#),
            (#"{"cents":5,"curr\u0065ncy":"EUR","skip":[1,-2.5e-3,{"a":[true,false,null,"\""]}],"cents":7}"#, #"{"value":"€0.05"}"#),
            (#"{"cents":0,"currency":"\u20ac\ud83d\ude00\n\t\"\\\/\b\f\r"}"#, #"{"value":"€😀\n\t\"\\/\b\f\r 0.00"}"#),
            (#"{"cents":1e3,"currency":"EUR"}"#, #"{"value":"€10.00"}"#),
            (#"{"cents":1250,"currency":"\ud83d"}"#, #"{"error":"unpaired UTF-16 surrogate in a \u escape"}"#),
            (#"{"cents":1250,"currency":"\ude00"}"#, #"{"error":"unpaired UTF-16 surrogate in a \u escape"}"#),
            (#"{"cents":1250,"currency":"\u12G4"}"#, #"{"error":"invalid \u escape"}"#),
            (#"{"cents":1250,"currency":"\u12"}"#, #"{"error":"invalid \u escape"}"#),
            (#"{"cents":1250,"currency":"\x"}"#, #"{"error":"invalid escape in a JSON string"}"#),
            ("{\"cents\":1250,\"currency\":\"a\u{01}b\"}", #"{"error":"control character in a JSON string"}"#),
            (#"{"cents":1250,"currency":"abc"#, #"{"error":"unterminated JSON string"}"#),
            (#"{"cents":1250,"currency":"EUR",}"#, #"{"error":"expected an object key"}"#),
            (#"{"cents":1250 "currency":"EUR"}"#, #"{"error":"expected ',' or '}' in an object"}"#),
            (#"{"cents" 1250}"#, #"{"error":"expected ':' after an object key"}"#),
            (#"{"cents":1250,"currency":"EUR""#, #"{"error":"unterminated JSON object"}"#),
            (#"{"cents":[1 2],"currency":"EUR"}"#, #"{"error":"expected ',' or ']' in an array"}"#),
            (#"{"cents":[1,"#, #"{"error":"unexpected end of JSON input"}"#),
            (#"{"cents":1250,"currency":"EUR"} x"#, #"{"error":"trailing characters after the JSON value"}"#),
            (#"{"cents":1.,"currency":"EUR"}"#, #"{"error":"invalid JSON number"}"#),
            (#"{"cents":1e+,"currency":"EUR"}"#, #"{"error":"invalid JSON number exponent"}"#),
            (#"{"cents":+1,"currency":"EUR"}"#, #"{"error":"invalid JSON value"}"#),
            (#"{"cents":tru,"currency":"EUR"}"#, #"{"error":"invalid JSON literal"}"#),
            (String(repeating: "[", count: 257) + String(repeating: "]", count: 257), #"{"error":"JSON nested too deeply"}"#),
            ("[1,2]", #"{"error":"expected a JSON object of arguments"}"#),
            ("", #"{"error":"empty input, expected a JSON object"}"#),
            (#"{"cents":12.5,"currency":"EUR"}"#, #"{"error":"expected an integer (key 'cents')"}"#),
            (#"{"cents":1250,"currency":true}"#, #"{"error":"expected a String (key 'currency')"}"#),
        ]
        let outputs = try GuestHarness.call(module: output, cases.map { (export, $0.input) })
        for (index, expected) in cases.enumerated() {
            #expect(outputs[index] == expected.output, "input \(expected.input)")
        }
    }

    @Test func scalarFastPaths() throws {
        let (result, output) = try built()
        let scalars = Dictionary(uniqueKeysWithValues: result.manifest.exports.compactMap { export in export.scalar.map { (export.declarationID, $0) } })
        #expect(scalars["add(_:_:)"] == .init(symbol: "patch_fns__add__", wasmSignature: "(i64,i64)->i64"))
        #expect(scalars["clamp(_:lower:upper:)"]?.wasmSignature == "(f64,f64,f64)->f64")
        #expect(scalars["isEven(_:)"]?.wasmSignature == "(i64)->i32")
        #expect(scalars["formatPrice(_:currency:)"] == nil)
        let results = try GuestHarness.callScalars(module: output, [
            ("patch_fns__add__", [40, 2]),
            ("patch_fns__clamp__lower_upper", [7.5, 0.5, 5.0]),
            ("patch_fns__isEven_", [6]),
        ])
        #expect(results == ["42", "5.0", "1"])
    }

    @Test func unpatchableDeclarationsAreReportedWithReasonAndLocation() throws {
        let (result, _) = try built()
        let byID = Dictionary(uniqueKeysWithValues: result.manifest.unpatchable.map { ($0.declarationID, $0) })
        #expect(Set(byID.keys) == Set(Self.unpatchableExports))
        #expect(byID["PriceCalculator.receiptDate(for:)"]?.reason == .osFrameworkAPI)
        #expect(byID["PriceCalculator.receiptDate(for:)"]?.location == GuestSourceLocation(file: "Pricing.swift", line: 55))
        #expect(byID["fetchLimit()"]?.reason == .asyncCode)
        #expect(byID["fetchLimit()"]?.location?.file == "Validation.swift")
        #expect(byID["bump(_:)"]?.reason == .unsupportedLanguageFeature)
        #expect(byID["lookupMissing(_:)"]?.reason == .missingDependency)
        #expect(byID["lookupMissing(_:)"]?.location == GuestSourceLocation(file: "Validation.swift", line: 71))
        #expect(byID["reset(_:)"]?.reason == .unsupportedLanguageFeature)
        #expect(byID["nowhere(_:)"]?.reason == .notFound)
        // The patchable ones are all exported, and the Foundation-only member of LineItem was left out.
        #expect(result.manifest.exports.map(\.declarationID) == Self.patchableExports)
        let guest = try String(contentsOfFile: (try built().1 as NSString).appendingPathComponent("PatchGuest.swift"), encoding: .utf8)
        #expect(!guest.contains("NumberFormatter"))
    }

    @Test func manifestDescribesTheModule() throws {
        let (result, output) = try built()
        let module = try Data(contentsOf: URL(fileURLWithPath: (output as NSString).appendingPathComponent("module.wasm")))
        #expect(result.manifest.module.size == module.count)
        #expect(result.manifest.abiVersion == 1)
        let total = try #require(result.manifest.exports.first)
        #expect(total.symbol == "_pf_PriceCalculator_total__items_discount")
        #expect(total.signature == "static func total(items: [LineItem], discount: Discount) -> Int")
        #expect(total.contentHash.count == 64)
        #expect(result.manifest.probes == [GuestProbe(
            name: "PriceCalculator.total(items:discount:) #1", export: "_pf_PriceCalculator_total__items_discount",
            input: #"{"items":[{"name":"Tea","cents":250,"quantity":2}],"discount":{"none":{}}}"#, expected: .object(["value": .integer(540)]))])
        #expect(result.manifest.sha256 == result.manifest.module.sha256)
        // The probe holds: the module computes what the comment says.
        let probe = result.manifest.probes[0]
        #expect(try GuestHarness.call(module: output, [(probe.export, probe.input)]) == [String(decoding: CanonicalJSON.serialize(probe.expected), as: UTF8.self)])
        // The shipped module has no custom sections; the symbol map names the exported glue.
        #expect(!module.contains(Data("lineTotal".utf8)))
        let symbols = try String(contentsOfFile: (output as NSString).appendingPathComponent("symbols.json"), encoding: .utf8)
        #expect(symbols.contains("patch_malloc"))
    }

    @Test func buildsAreByteIdenticalInDifferentDirectories() throws {
        let toolchain = try Toolchain.discover()
        var manifests: [Data] = []
        var modules: [Data] = []
        for name in ["checkout-a", "somewhere/else/checkout-b"] {
            let root = try GuestHarness.temporaryDirectory("determinism")
            let sources = (root as NSString).appendingPathComponent(name)
            try FileManager.default.createDirectory(atPath: (sources as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: GuestHarness.fixtureApp, toPath: sources)
            let output = (root as NSString).appendingPathComponent("out")
            _ = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: sources, exports: ["PriceCalculator.total(items:discount:)", "formatPrice(_:currency:)"],
                outputDirectory: output, toolchain: toolchain))
            modules.append(try Data(contentsOf: URL(fileURLWithPath: (output as NSString).appendingPathComponent("module.wasm"))))
            manifests.append(try Data(contentsOf: URL(fileURLWithPath: (output as NSString).appendingPathComponent("manifest.json"))))
        }
        #expect(modules[0] == modules[1])
        #expect(manifests[0] == manifests[1])
    }

    @Test func moduleSizesStayWithinTheBenchmarkTargets() throws {
        // binaryen is one of the tools `make test` installs: under CI its absence fails the test.
        let toolchain = try Toolchain.discover(settings: .init(wasmOpt: ProcessInfo.processInfo.environment["CI"] == "true" ? .always : .auto))
        var sizes: [String: Int] = [:]
        for (label, sources, export) in [
            ("integer", GuestHarness.fixtureApp, "add(_:_:)"),
            ("string", GuestHarness.fixtureApp, "formatCents(_:symbol:)"),
            ("string+dictionary", GuestHarness.fixtureApp, "formatPrice(_:currency:)"),
            // The module `make bench-build` measures against the 40 KB target (benchmarks/build).
            ("PatchShop string", GuestHarness.exampleSources, "PriceFormatter.format(_:)"),
        ] {
            let output = try GuestHarness.temporaryDirectory("size")
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: sources, exports: [export], outputDirectory: output, toolchain: toolchain))
            sizes[label] = result.manifest.module.size
        }
        print("guest module sizes (wasm-opt: \(toolchain.wasmOpt != nil)): \(sizes)")
        // Issue 5's targets are 20 KB (integer) and 40 KB (string). With link-time optimization and
        // wasm-opt the integer, string and PatchShop string modules measure 7.0 KiB, 29.0 KiB and
        // 39.6 KiB; with LTO alone 8.0 KiB, 36.0 KiB and 49.3 KiB, so PatchShop's looser bound there
        // only guards against regressions where binaryen is not installed.
        #expect(try #require(sizes["integer"]) <= 20 * 1024)
        #expect(try #require(sizes["string"]) <= 40 * 1024)
        #expect(try #require(sizes["PatchShop string"]) <= (toolchain.wasmOpt == nil ? 52 : 40) * 1024)
    }

    /// `Int.random` draws from the host's `patch.secure_random_bytes` (served by call_guest.py from the
    /// OS, as the SDK does): two calls in one instance differ; only a module that draws imports it.
    @Test func randomNumbersComeFromTheHostBridge() throws {
        let toolchain = try Toolchain.discover()
        let sources = try GuestHarness.temporaryDirectory("random-sources")
        try Data(#"""
            // Four draws at once: two calls agree by chance with probability 2^-124.
            func rolls() -> [Int] {
                (0..<4).map { _ in Int.random(in: 0...Int.max) }
            }
            """#.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent("Dice.swift")))
        let output = try GuestHarness.temporaryDirectory("random")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: ["rolls()"], outputDirectory: output, toolchain: toolchain))
        let export = try #require(result.manifest.exports.first?.symbol)
        let outputs = try GuestHarness.call(module: output, [(export, "{}"), (export, "{}")])
        #expect(outputs[0].hasPrefix(#"{"value":["#), "\(outputs[0])")
        #expect(outputs[0] != outputs[1])
        let module = try Data(contentsOf: URL(fileURLWithPath: (output as NSString).appendingPathComponent("module.wasm")))
        #expect(module.range(of: Data("secure_random_bytes".utf8)) != nil)

        let integerOutput = try GuestHarness.temporaryDirectory("no-random")
        _ = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: GuestHarness.fixtureApp, exports: ["add(_:_:)"], outputDirectory: integerOutput, toolchain: toolchain))
        let integerModule = try Data(contentsOf: URL(fileURLWithPath: (integerOutput as NSString).appendingPathComponent("module.wasm")))
        #expect(integerModule.range(of: Data("secure_random_bytes".utf8)) == nil)
    }

    @Test func nothingPatchableIsItsOwnError() throws {
        let toolchain = try Toolchain.discover()
        let output = try GuestHarness.temporaryDirectory("nothing")
        #expect {
            try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: GuestHarness.fixtureApp, exports: ["fetchLimit()"], outputDirectory: output, toolchain: toolchain))
        } throws: { error in
            guard case GuestBuildError.nothingToPatch(let unpatchable) = error else { return false }
            return unpatchable.map(\.reason) == [.asyncCode]
        }
    }
}

struct GuestHarnessError: Error, CustomStringConvertible {
    let description: String
}

/// Runs guest modules in wasmtime (python). Under CI=true a missing wasmtime fails the test.
enum GuestHarness {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GuestFixtures").path
    static let fixtureApp = (fixtures as NSString).appendingPathComponent("App")
    /// Examples/PatchShop's sources, which the build benchmark patches.
    static let exampleSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/PatchShop/Sources").path

    static func temporaryDirectory(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("patchbuild-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func call(module directory: String, _ calls: [(export: String, input: String)]) throws -> [String] {
        let requests = try calls.map { call in
            String(decoding: try JSONSerialization.data(withJSONObject: ["export": call.export, "input": call.input]), as: UTF8.self)
        }
        return try run(directory, requests).map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let output = object?["output"] as? String else { throw GuestHarnessError(description: "bad harness line: \(line)") }
            return output
        }
    }

    static func callScalars(module directory: String, _ calls: [(export: String, arguments: [Any])]) throws -> [String] {
        let requests = try calls.map { call in
            String(decoding: try JSONSerialization.data(withJSONObject: ["scalar": call.export, "args": call.arguments]), as: UTF8.self)
        }
        return try run(directory, requests).map { line in
            guard let start = line.range(of: #"{"result": "#), line.hasSuffix("}") else { throw GuestHarnessError(description: "bad harness line: \(line)") }
            return String(line[start.upperBound..<line.index(before: line.endIndex)])
        }
    }

    private static func run(_ directory: String, _ requests: [String]) throws -> [String] {
        let python = "/usr/bin/env"
        let check = try execute(python, ["python3", "-c", "import wasmtime"], input: "")
        guard check.status == 0 else {
            // Executing the module is the point of these tests, so a missing runtime fails them
            // everywhere (CI included), with the fix in the message.
            throw GuestHarnessError(description: "python3 with the wasmtime module is needed to execute guest modules (pip install wasmtime)")
        }
        let module = (directory as NSString).appendingPathComponent("module.wasm")
        let script = (fixtures as NSString).appendingPathComponent("call_guest.py")
        let result = try execute(python, ["python3", script, module], input: requests.joined(separator: "\n") + "\n")
        guard result.status == 0 else { throw GuestHarnessError(description: "call_guest.py failed: \(result.error)") }
        return result.output.split(separator: "\n").map(String.init)
    }

    private static func execute(_ executable: String, _ arguments: [String], input: String) throws -> (status: Int32, output: String, error: String) {
        let directory = try temporaryDirectory("io")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputPath = (directory as NSString).appendingPathComponent("in")
        let outputPath = (directory as NSString).appendingPathComponent("out")
        let errorPath = (directory as NSString).appendingPathComponent("err")
        try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath))
        try Data().write(to: URL(fileURLWithPath: outputPath))
        try Data().write(to: URL(fileURLWithPath: errorPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: inputPath)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        let output = try String(contentsOfFile: outputPath, encoding: .utf8)
        let error = try String(contentsOfFile: errorPath, encoding: .utf8)
        return (process.terminationStatus, output, error)
    }
}
