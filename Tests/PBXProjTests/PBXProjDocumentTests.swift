import Testing
@testable import PBXProj

@Suite struct PBXProjDocumentTests {
    static let project = """
// !$*UTF8*$!
{
	archiveVersion = 1;
	objects = {

/* Begin PBXBuildFile section */
		AA0000000000000000000001 /* a.swift in Sources */ = {isa = PBXBuildFile; fileRef = AA0000000000000000000011 /* a.swift */; };
		AA0000000000000000000003 /* c.swift in Sources */ = {isa = PBXBuildFile; fileRef = AA0000000000000000000013 /* c.swift */; };
/* End PBXBuildFile section */

/* Begin PBXGroup section */
		AA0000000000000000000020 = {
			isa = PBXGroup;
			children = (
				AA0000000000000000000011 /* a.swift */,
			);
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXSourcesBuildPhase section */
		AA0000000000000000000030 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */
	};
	rootObject = AA0000000000000000000020;
}

"""

    func text(_ document: PBXProjDocument) -> String { String(decoding: document.bytes, as: UTF8.self) }

    @Test func objectGoesIntoItsSectionInIDOrderAndOutAgain() throws {
        let original = try PBXProjDocument(bytes: Array(Self.project.utf8))
        var document = original
        document.insertObject(id: "AA0000000000000000000002", comment: "b.swift in Sources", fields: [
            ("isa", .string("PBXBuildFile")), ("fileRef", .string("AA0000000000000000000012", comment: "b.swift")),
        ], singleLine: true)
        #expect(text(document).contains("""
\t\tAA0000000000000000000001 /* a.swift in Sources */ = {isa = PBXBuildFile; fileRef = AA0000000000000000000011 /* a.swift */; };
\t\tAA0000000000000000000002 /* b.swift in Sources */ = {isa = PBXBuildFile; fileRef = AA0000000000000000000012 /* b.swift */; };
\t\tAA0000000000000000000003 /* c.swift in Sources */ = {isa = PBXBuildFile;
"""))
        document.removeObject(id: "AA0000000000000000000002")
        #expect(document.bytes == original.bytes)
    }

    @Test func missingSectionIsCreatedInISAOrderAndRemovedWhenEmptied() throws {
        let original = try PBXProjDocument(bytes: Array(Self.project.utf8))
        var document = original
        // Between PBXGroup and PBXSourcesBuildPhase.
        document.insertObject(id: "AA0000000000000000000040", comment: "App", fields: [
            ("isa", .string("PBXNativeTarget")), ("name", .string("My App")), ("buildPhases", .array([.string("AA0000000000000000000030", comment: "Sources")])),
        ], singleLine: false)
        #expect(text(document).contains("""
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
\t\tAA0000000000000000000040 /* App */ = {
\t\t\tisa = PBXNativeTarget;
\t\t\tname = "My App";
\t\t\tbuildPhases = (
\t\t\t\tAA0000000000000000000030 /* Sources */,
\t\t\t);
\t\t};
/* End PBXNativeTarget section */

/* Begin PBXSourcesBuildPhase section */
"""))
        // After the last section.
        document.insertObject(id: "AA0000000000000000000050", comment: nil, fields: [("isa", .string("XCSwiftPackageProductDependency"))], singleLine: false)
        #expect(text(document).contains("""
/* End PBXSourcesBuildPhase section */

/* Begin XCSwiftPackageProductDependency section */
\t\tAA0000000000000000000050 = {
\t\t\tisa = XCSwiftPackageProductDependency;
\t\t};
/* End XCSwiftPackageProductDependency section */
\t};
"""))
        document.removeObject(id: "AA0000000000000000000040")
        document.removeObject(id: "AA0000000000000000000050")
        #expect(document.bytes == original.bytes)
    }

    @Test func arrayElementsAndKeysAreInsertedAsXcodeWritesThem() throws {
        let original = try PBXProjDocument(bytes: Array(Self.project.utf8))
        var document = original
        let phase = "AA0000000000000000000030", group = "AA0000000000000000000020", buildFile = "AA0000000000000000000001"
        document.insert(.string("AA0000000000000000000001", comment: "a.swift in Sources"), intoArray: "files", ofObject: phase)
        document.insert(.string("AA0000000000000000000012", comment: "b.swift"), intoArray: "children", ofObject: group, at: 0)
        document.set("name", to: .string("Main Group"), inObject: group)
        document.set("settings", to: .dictionary([("ATTRIBUTES", .array([]))]), inObject: buildFile)
        #expect(text(document).contains("""
\t\t\tfiles = (
\t\t\t\tAA0000000000000000000001 /* a.swift in Sources */,
\t\t\t);
"""))
        #expect(text(document).contains("""
\t\t\tchildren = (
\t\t\t\tAA0000000000000000000012 /* b.swift */,
\t\t\t\tAA0000000000000000000011 /* a.swift */,
\t\t\t);
\t\t\tname = "Main Group";
\t\t\tsourceTree = "<group>";
"""))
        // One-line objects stay on one line; `settings` sorts after `fileRef`.
        #expect(text(document).contains("= {isa = PBXBuildFile; fileRef = AA0000000000000000000011 /* a.swift */; settings = {ATTRIBUTES = (); }; };"))
        document.set("extra", to: .array([.string("x")]), inObject: buildFile)
        #expect(text(document).contains("= {isa = PBXBuildFile; extra = (x, ); fileRef ="))

        document.removeElements(ofArray: "extra", ofObject: buildFile, removingKeyWhenEmpty: true) { _ in true }
        document.removeElements(ofArray: "files", ofObject: phase) { $0.string == buildFile }
        document.removeElements(ofArray: "children", ofObject: group) { $0.string == "AA0000000000000000000012" }
        #expect(document.object(phase)?["files"]?.elements?.isEmpty == true)
        #expect(document.object(buildFile)?["extra"] == nil)
        #expect(text(document).contains("\t\t\tfiles = (\n\t\t\t);\n"))
    }

    @Test func removingAnArrayElementOnOneLineKeepsTheRest() throws {
        var document = try PBXProjDocument(bytes: Array("{ objects = { X = {isa = A; list = (a, b /* two */, c, ); }; }; }".utf8))
        document.removeElements(ofArray: "list", ofObject: "X") { $0.string == "b" }
        #expect(text(document) == "{ objects = { X = {isa = A; list = (a, c, ); }; }; }")
        document.removeElements(ofArray: "list", ofObject: "X", removingKeyWhenEmpty: true) { _ in true }
        #expect(text(document) == "{ objects = { X = {isa = A; }; }; }")
    }

    /// A list written without the comma Xcode puts after its last element still gets a valid insertion.
    @Test func appendingToAOneLineListWithoutTrailingCommaSeparatesTheElements() throws {
        var document = try PBXProjDocument(bytes: Array("{ objects = { X = {isa = A; list = (a); empty = (); }; }; }".utf8))
        document.insert(.string("b"), intoArray: "list", ofObject: "X")
        document.insert(.string("c"), intoArray: "empty", ofObject: "X")
        #expect(text(document) == "{ objects = { X = {isa = A; list = (a, b, ); empty = (c, ); }; }; }")
        #expect(document.objects["X"]?["list"]?.strings == ["a", "b"])
    }

    @Test func objectIDsAreDeterministicXcodeShapedAndUnique() {
        let first = ObjectID.derive(from: "seed", avoiding: [])
        #expect(first == ObjectID.derive(from: "seed", avoiding: []))
        #expect(first.count == 24)
        #expect(first.allSatisfy { $0.isHexDigit && !$0.isLowercase })
        #expect(ObjectID.derive(from: "other seed", avoiding: []) != first)
        let second = ObjectID.derive(from: "seed", avoiding: [first])
        #expect(second != first && second.count == 24)
    }

    @Test func stringsAreQuotedWhereXcodeQuotesThem() {
        #expect(PlistText.quoted("Patch") == "Patch")
        #expect(PlistText.quoted("1.4.0") == "1.4.0")
        #expect(PlistText.quoted("Sources/App/$x:y_z") == "Sources/App/$x:y_z")
        #expect(PlistText.quoted("https://github.com/a/b") == "\"https://github.com/a/b\"")
        #expect(PlistText.quoted("My App") == "\"My App\"")
        #expect(PlistText.quoted("<group>") == "\"<group>\"")
        #expect(PlistText.quoted("com.apple.product-type.application") == "\"com.apple.product-type.application\"")
        #expect(PlistText.quoted("") == "\"\"")
        #expect(PlistText.quoted("___VAR___") == "\"___VAR___\"")
        #expect(PlistText.quoted("say \"hi\"\\\n") == "\"say \\\"hi\\\"\\\\\\n\"")
    }
}
