@testable import PatchBuild
import SwiftParser
import SwiftSyntax
import Testing

/// Key paths standing for functions (`items.map(\.name)`, SE-0249), which Embedded Swift cannot
/// compile: the guest program writes them as closures (`GuestSourceWriter.keyPathFunctions`);
/// GuestKeyPathFunctionTests (PatchRuntimeTests) runs them.
struct GuestKeyPathRewriteTests {
    static func rewritten(_ source: String) -> String {
        let file = Parser.parse(source: source)
        var bytes = Array(source.utf8)
        for statement in file.statements {
            guard let decl = statement.item.as(DeclSyntax.self) else { continue }
            for (range, replacement) in GuestSourceWriter.keyPathFunctions(in: decl).reversed() {
                bytes.replaceSubrange(range, with: Array(replacement.utf8))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theStandardLibrarysFunctionArgumentsBecomeClosuresAndRealKeyPathsStay() {
        #expect(Self.rewritten("func f(_ a: [A]) -> [String] { a.filter(\\.isOn).compactMap(\\A.owner?.name) }\n")
                == "func f(_ a: [A]) -> [String] { a.filter({ $0.isOn }).compactMap({ $0.owner?.name }) }\n")
        #expect(Self.rewritten("func f(_ a: [[A]]) -> Bool { a.flatMap(\\.self).contains(where: \\.isOn) }\n")
                == "func f(_ a: [[A]]) -> Bool { a.flatMap({ $0 }).contains(where: { $0.isOn }) }\n")
        // Callees that take a KeyPath, and labels the function form does not have, keep the key path.
        for kept in ["func f() { v.environment(\\.locale, l) }\n", "func f(_ a: [A]) -> [A] { a.sorted(using: \\.name) }\n",
                     "let d = SortDescriptor(\\A.date)\n", "func f(_ a: [A]) -> A? { a.first(property: \\.name, equalTo: n) }\n"] {
            #expect(Self.rewritten(kept) == kept)
        }
    }
}
