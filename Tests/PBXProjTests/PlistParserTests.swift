import Testing
@testable import PBXProj

@Suite struct PlistParserTests {
    /// Every construct of the format in one file: header comment, nested dictionaries, multi-line
    /// and one-line arrays with and without a trailing comma, quoted strings with escapes, bare
    /// strings with `/`, `-`, `.` and `$`, comments between every token, non-ASCII text.
    static let sample = """
// !$*UTF8*$!
{
	archiveVersion = 1;
	objects = {
/* Begin PBXBuildFile section */
		ID1 /* a.swift in Sources */ = {isa = PBXBuildFile; settings = {ATTRIBUTES = (CodeSignOnCopy, ); }; };
/* End PBXBuildFile section */
		ID2 = {
			isa = PBXGroup;
			children = (
				ID1 /* a */,
				"ID 3",
			);
			name = "Caf\\u00e9 \\"quoted\\" \\\\ tab\\tnewline\\n octal\\101";
			path = Sources/App-1.0/$x;
			single = 'one';
			unicode = "Brötchen";
			last = (a, b);
			empty = ();
			nothing = {};
		};
	};
	rootObject = ID2 /* Project object */;
}

"""

    @Test func parsesEveryConstructWithRanges() throws {
        let bytes = Array(Self.sample.utf8)
        let (root, comments) = try PlistParser.parse(bytes)
        let group = try #require(root["objects"]?["ID2"])
        #expect(group["children"]?.strings == ["ID1", "ID 3"])
        #expect(group["name"]?.string == "Café \"quoted\" \\ tab\tnewline\n octalA")
        #expect(group["path"]?.string == "Sources/App-1.0/$x")
        #expect(group["single"]?.string == "one")
        #expect(group["unicode"]?.string == "Brötchen")
        #expect(group["last"]?.strings == ["a", "b"])
        #expect(group["empty"]?.elements?.isEmpty == true)
        #expect(group["nothing"]?.entries?.isEmpty == true)
        #expect(root["objects"]?["ID1"]?["settings"]?["ATTRIBUTES"]?.strings == ["CodeSignOnCopy"])
        #expect(root["rootObject"]?.string == "ID2")
        #expect(comments.map(\.text) == ["!$*UTF8*$!", "Begin PBXBuildFile section", "a.swift in Sources", "End PBXBuildFile section", "a", "Project object"])

        // Ranges point at the bytes the values were read from.
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        #expect(text(try #require(group["path"]).range) == "Sources/App-1.0/$x")
        #expect(text(try #require(group["unicode"]).range) == "\"Brötchen\"")
        let firstChild = try #require(group["children"]?.elements?.first)
        #expect(text(firstChild.extent) == "ID1 /* a */,")
        #expect(text(try #require(group.entry("single")).extent) == "single = 'one';")
        #expect(text(try #require(root["objects"]?["ID1"]).range).hasPrefix("{isa = PBXBuildFile;"))
    }

    @Test func unescapedAndUnEditedDocumentKeepsEveryByte() throws {
        let bytes = Array(Self.sample.utf8)
        let document = try PBXProjDocument(bytes: bytes)
        #expect(document.bytes == bytes)
    }

    /// Each malformed input, the reason, and the line and column reported.
    static let malformed: [(input: String, reason: PlistParseError.Reason, line: Int, column: Int)] = [
        ("{\n\ta = \"open;\n}", .unterminatedString, 2, 6),
        ("{\n\ta = b\n\tc = d;\n}", .unexpected(found: "'c'", expected: "';' after the value of \"a\""), 3, 2),
        ("{\n\ta = (x, y;\n}", .unexpected(found: "';'", expected: "',' or ')' after an array element"), 2, 11),
        ("{\n\ta = {\n\t\tb = c;\n", .unclosed(container: "dictionary '{'"), 2, 6),
        ("{\n\ta = (b, c,\n", .unclosed(container: "array '('"), 2, 6),
        ("{ a = b; }\n}", .trailingData, 2, 1),
        ("{ a = b; /* never closed }", .unterminatedComment, 1, 10),
        ("{ a = \"bad \\q\"; }", .invalidEscape("q"), 1, 12),
        ("{ = b; }", .unexpected(found: "'='", expected: "a key or '}'"), 1, 3),
        ("// only a comment\n", .empty, 1, 1),
        ("( a, b, )", .notAProject, 1, 1),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedInputIsLocated(index: Int) {
        let (input, reason, line, column) = Self.malformed[index]
        #expect {
            _ = try PBXProjDocument(bytes: Array(input.utf8))
        } throws: { error in
            guard let error = error as? PlistParseError else { return false }
            return error.reason == reason && error.line == line && error.column == column
        }
    }

    @Test func invalidUTF8IsLocated() {
        var bytes = Array("{\n\tname = \"caf".utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by a non-continuation byte
        bytes += Array("\";\n}".utf8)
        #expect(throws: PlistParseError(.notUTF8, offset: 14, in: bytes)) {
            _ = try PBXProjDocument(bytes: bytes)
        }
        #expect(PlistParseError(.notUTF8, offset: 14, in: bytes).description.contains("line 2, column 13"))
        #expect(PlistParser.firstInvalidUTF8(Array("Brötchen €😀".utf8)) == nil)
        #expect(PlistParser.firstInvalidUTF8([0x41, 0xED, 0xA0, 0x80]) == 1)  // an encoded UTF-16 surrogate
        #expect(PlistParser.firstInvalidUTF8([0xC0, 0x80]) == 0)  // overlong
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "(", count: 200) + String(repeating: ")", count: 200)
        #expect {
            _ = try PlistParser.parse(Array(deep.utf8))
        } throws: { error in
            (error as? PlistParseError)?.reason == .nestingTooDeep(limit: PlistParser.maximumDepth)
        }
    }
}
