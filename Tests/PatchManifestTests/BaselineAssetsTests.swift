import PatchManifest
import XCTest

/// The baseline's `assets` (docs/assets.md): canonical like the rest, and absent (old bytes, old
/// fingerprint) when there are none.
final class BaselineAssetsTests: XCTestCase {
    private let declaration = Baseline.Declaration(id: "App:f()", kind: .function, contentHash: "h", file: "A.swift")

    func testAssetsAreWrittenCanonicallyAndReadBack() throws {
        let baseline = Baseline(declarations: [declaration], assets: [
            .init(id: "string:pt-BR:Localizable:title", contentHash: "b", file: "App/pt-BR.lproj/Localizable.strings"),
            .init(id: "color:Brand", contentHash: "a", file: "App/Assets.xcassets/Brand.colorset/Contents.json"),
        ])
        let generic = CanonicalJSON.serialize(.object([
            "assets": .array(baseline.assets.map { .object(["file": .string($0.file), "hash": .string($0.contentHash), "id": .string($0.id)]) }),
            "declarations": .array([.object(["file": .string("A.swift"), "hash": .string("h"), "id": .string("App:f()"), "kind": .string("function")])]),
            "format": .integer(1),
        ]))
        XCTAssertEqual(String(decoding: baseline.canonicalJSON, as: UTF8.self), String(decoding: generic, as: UTF8.self))
        XCTAssertEqual(baseline.assets.map(\.id), ["color:Brand", "string:pt-BR:Localizable:title"])
        XCTAssertEqual(try Baseline(json: try JSONValue.parse(baseline.canonicalJSON)), baseline)
    }

    func testABaselineWithoutAssetsKeepsItsBytesAndFingerprint() throws {
        let old = Array(#"{"declarations":[{"file":"A.swift","hash":"h","id":"App:f()","kind":"function"}],"format":1}"#.utf8)
        let read = try Baseline(json: try JSONValue.parse(old))
        XCTAssertEqual(read.assets, [])
        XCTAssertEqual(read.canonicalJSON, old)
        XCTAssertEqual(BuildFingerprint.compute(baseline: read), BuildFingerprint.compute(canonicalBaseline: old))
        // Recording an asset is a different native build.
        let withAsset = Baseline(declarations: read.declarations, assets: [.init(id: "color:C", contentHash: "x", file: "C")])
        XCTAssertNotEqual(BuildFingerprint.compute(baseline: withAsset), BuildFingerprint.compute(baseline: read))
    }

    func testMalformedAssetsAreRejected() throws {
        let bad = Array(#"{"assets":[{"id":"color:C"}],"declarations":[],"format":1}"#.utf8)
        XCTAssertThrowsError(try Baseline(json: try JSONValue.parse(bad))) {
            XCTAssertEqual("\($0)", "not a Patch baseline: assets[0] lacks id, hash or file; run `patchcli prepare` to write it again")
        }
    }
}
