import Foundation
import PatchBuild
import Testing

/// manifest.json spells the declaration key one way in `exports[]` and `unpatchable[]`.
@Suite struct ManifestKeyTests {
    @Test func exportsAndUnpatchableEntriesBothSayDeclarationId() throws {
        let location = GuestSourceLocation(file: "Pricing.swift", line: 3)
        let unpatchable = GuestUnpatchable(declarationID: "Pricing.total(of:)", reason: .asyncCode, detail: "await", location: location)
        let export = try JSONDecoder().decode(GuestManifest.Export.self, from: Data(#"""
            {"declarationId":"Pricing.fee()","symbol":"_pf_Pricing_fee__","signature":"static func fee() -> Int","contentHash":"00","location":{"file":"Pricing.swift","line":9}}
            """#.utf8))
        #expect(export.declarationID == "Pricing.fee()")
        for value in [try JSONEncoder().encode(unpatchable), try JSONEncoder().encode(export)] {
            let keys = try #require(try JSONSerialization.jsonObject(with: value) as? [String: Any]).keys
            #expect(keys.contains("declarationId"))
            #expect(!keys.contains("declarationID"))
        }
    }
}
