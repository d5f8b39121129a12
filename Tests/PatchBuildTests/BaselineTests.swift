@testable import PatchBuild
import PatchManifest
import Testing

@Suite struct BaselineTests {
    private let source = """
        struct Money { var cents: Int; var currency: String }
        enum Kind { case a, b }
        struct Screen: View {
            let title: String
            var subtitle: String { title.uppercased() }
            init(title: String) { self.title = title }
            var body: some View { Text(title) }
            func render(times: Int, _ extra: [String: Int]) -> String { title }
        }
        func helper(_ x: Int) -> Int { x }
        """

    @Test func recordsEveryDeclarationKindWithStableIDs() {
        let baseline = PreparedProject(source).plan.baseline
        let kinds = Dictionary(uniqueKeysWithValues: baseline.declarations.map { ($0.id, $0.kind) })
        #expect(kinds == [
            "App:Money": .storedLayout, "App:Kind": .storedLayout, "App:Screen": .storedLayout,
            "App:Screen.subtitle": .computedProperty, "App:Screen.init(title:String)": .initializer,
            "App:Screen.body": .viewBody, "App:Screen.render(times:Int,_:[String:Int])": .method,
            "App:helper(_:Int)": .function,
        ])
        #expect(baseline.declarations.map(\.id) == baseline.declarations.map(\.id).sorted())
    }

    @Test func hashesIgnoreFormattingAndCommentsButNotCode() {
        let original = PreparedProject(source).plan.baseline
        let reformatted = PreparedProject(source
            .replacingOccurrences(of: "{ title.uppercased() }", with: "{\n        // shout\n        title  .uppercased()\n    }"))
            .plan.baseline
        #expect(original == reformatted)
        let edited = PreparedProject(source.replacingOccurrences(of: "title.uppercased()", with: "title.lowercased()")).plan.baseline
        let changed = zip(original.declarations, edited.declarations).filter { $0.contentHash != $1.contentHash }.map(\.0.id)
        #expect(changed == ["App:Screen.subtitle"])
    }

    @Test func preparedSourcesHaveTheSameBaselineAsTheOriginals() {
        let first = PreparedProject(source + "\n// @patchable\nfunc twice(_ x: Int) -> Int { x * 2 }\n")
        let second = first.rerun(targets: ["App"])
        #expect(first.plan.baseline == second.plan.baseline)
        #expect(first.plan.fingerprint == second.plan.fingerprint)
    }

    @Test func canonicalJSONIsSortedCompactAndRoundTrips() throws {
        let baseline = Baseline(declarations: [
            .init(id: "App:b", kind: .function, contentHash: "22", file: "B.swift"),
            .init(id: "App:a", kind: .viewBody, contentHash: "11", file: "A \"quoted\".swift"),
        ])
        #expect(String(decoding: baseline.canonicalJSON, as: UTF8.self) == #"{"declarations":[{"file":"A \"quoted\".swift","hash":"11","id":"App:a","kind":"viewBody"},{"file":"B.swift","hash":"22","id":"App:b","kind":"function"}],"format":1}"#)
        #expect(try Baseline(json: JSONValue.parse(baseline.canonicalJSON)) == baseline)
        #expect(Baseline(declarations: []).canonicalJSON == Array(#"{"declarations":[],"format":1}"#.utf8))
    }

    /// The bytes are written directly; they must be what the generic canonical serializer makes of
    /// the same tree, escapes included (a file name may hold anything a path can).
    @Test func canonicalJSONEqualsTheGenericSerializer() throws {
        let baseline = Baseline(declarations: [
            .init(id: "App:Ünïcode.body", kind: .viewBody, contentHash: "ab", file: "dir/tab\tand\u{1}control \\ back.swift"),
            .init(id: "App:f(x:Int)", kind: .function, contentHash: "cd", file: "line\nbreak.swift"),
            .init(id: "App:S", kind: .storedLayout, contentHash: "ef", file: "S.swift"),
        ])
        let tree = JSONValue.object([
            "format": .integer(Baseline.formatVersion),
            "declarations": .array(baseline.declarations.map { declaration in
                .object(["id": .string(declaration.id), "kind": .string(declaration.kind.rawValue),
                         "hash": .string(declaration.contentHash), "file": .string(declaration.file)])
            }),
        ])
        #expect(baseline.canonicalJSON == CanonicalJSON.serialize(tree))
        #expect(try Baseline(json: JSONValue.parse(baseline.canonicalJSON)) == baseline)
    }

    @Test func fingerprintCoversBaselineAndVersions() {
        let baseline = Baseline(declarations: [.init(id: "App:a", kind: .function, contentHash: "11", file: "A.swift")])
        let input = JSONValue.object([
            "abiVersion": .integer(1), "irSchemaVersion": .integer(6),
            "baselineSHA256": .string(SHA256Hasher.hex(of: baseline.canonicalJSON)),
        ])
        #expect(BuildFingerprint.compute(baseline: baseline) == SHA256Hasher.hex(of: CanonicalJSON.serialize(input)))
        #expect(BuildFingerprint.compute(baseline: Baseline(declarations: [])) != BuildFingerprint.compute(baseline: baseline))
    }

    @Test func namingRuleIsDocumentedAndDeterministic() {
        #expect(PatchNames.viewTypeName(path: ["Banner"]) == "Banner")
        #expect(PatchNames.viewTypeName(path: ["Outer", "Inner"]) == "Outer_Inner")
        #expect(PatchNames.viewTypeName(path: ["`Type`", "Café"]) == "Type_Caf_uE9_")
        #expect(PatchNames.viewBodyExport(typeName: "Outer_Inner") == "view_body__Outer_Inner")
        #expect(PatchNames.functionKey(typePath: ["Pricing"], baseName: "total", argumentLabels: ["of", nil]) == "Pricing.total(of:_:)")
        #expect(PatchNames.functionExport(typePath: [], baseName: "format", argumentLabels: [nil]) == "_pf_format___")
    }

    /// Views of different targets that share a name are qualified with their target; the names do
    /// not depend on the order the views are listed in; one target's look-alikes stay a collision.
    @Test func viewNamesAreQualifiedByTargetOnlyWhenTargetsShareAName() {
        func claim(_ target: String, _ path: String, _ location: String) -> PatchNames.ViewClaim {
            .init(view: .init(target: target, path: path.split(separator: ".").map(String.init)), location: location)
        }
        let claims = [
            claim("Swiftfin iOS", "CapsuleSlider", "iOS/CapsuleSlider.swift:9"),
            claim("Swiftfin tvOS", "CapsuleSlider", "tvOS/CapsuleSlider.swift:3"),
            claim("Swiftfin iOS", "VideoPlayer.Controls", "iOS/Controls.swift:4"),
            claim("Swiftfin iOS", "VideoPlayer.Controls", "iOS/Controls.swift:40"),
            claim("Swiftfin tvOS", "VideoPlayer.Controls", "tvOS/Controls.swift:5"),
            claim("Swiftfin iOS", "Home", "iOS/Home.swift:1"),
            claim("Swiftfin iOS", "A.B", "iOS/AB.swift:1"),
            claim("Swiftfin iOS", "A_B", "iOS/A_B.swift:1"),
        ]
        let naming = PatchNames.viewTypeNames(claims)
        #expect(naming == PatchNames.viewTypeNames(claims.reversed()))
        #expect(naming.typeName(of: .init(target: "Swiftfin iOS", path: ["CapsuleSlider"])) == "Swiftfin_u20_iOS_CapsuleSlider")
        #expect(naming.typeName(of: .init(target: "Swiftfin tvOS", path: ["CapsuleSlider"])) == "Swiftfin_u20_tvOS_CapsuleSlider")
        #expect(naming.typeName(of: .init(target: "Swiftfin tvOS", path: ["VideoPlayer", "Controls"])) == "Swiftfin_u20_tvOS_VideoPlayer_Controls")
        #expect(naming.typeName(of: .init(target: "Swiftfin iOS", path: ["Home"])) == "Home")
        #expect(naming.typeName(of: .init(target: "Swiftfin iOS", path: ["A", "B"])) == nil)
        #expect(naming.typeName(of: .init(target: "Swiftfin iOS", path: ["Missing"])) == nil)
        #expect(naming.collisions == [PatchNames.Collision(name: "A_B", claimants: [
            "iOS/AB.swift:1: A.B (target Swiftfin iOS)", "iOS/A_B.swift:1: A_B (target Swiftfin iOS)",
        ])])
    }

    /// `build` reads the views from the baseline's ids, `#if` duplicates and all.
    @Test func viewClaimsAreReadFromTheBaseline() {
        let baseline = Baseline(declarations: [
            .init(id: "Kit/UI:Outer.Row.body", kind: .viewBody, contentHash: "a", file: "UI/Row.swift"),
            .init(id: "Kit/UI:Outer.Row.body#2", kind: .viewBody, contentHash: "b", file: "UI/Row.swift"),
            .init(id: "App:Scene.body", kind: .computedProperty, contentHash: "c", file: "App/Scene.swift"),
            .init(id: "App:Row", kind: .storedLayout, contentHash: "d", file: "App/Row.swift"),
        ])
        #expect(PatchNames.viewClaims(in: baseline) == [
            .init(view: .init(target: "Kit/UI", path: ["Outer", "Row"]), location: "UI/Row.swift"),
            .init(view: .init(target: "Kit/UI", path: ["Outer", "Row"]), location: "UI/Row.swift"),
        ])
    }
}
