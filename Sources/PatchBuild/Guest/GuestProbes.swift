import Foundation
import PatchManifest
import SwiftSyntax

/// A smoke probe stated next to a function:
///
///     // @probe {"items": [{"name": "Tea", "cents": 250, "quantity": 2}], "discount": null} -> {"value": 500}
///     func total(items: [Item], discount: Discount?) -> Int { … }
///
/// The left side is the input object the thunk would send, the right side the expected output
/// envelope (numbers in it must be integers: the manifest's JSON has no floating point). Probes go
/// into manifest.json in the shape `patchcli run --smoke` reads (`RunManifest`) and `release` copies.
public struct GuestProbe: Sendable, Hashable, Codable {
    /// `<declaration id> #<n>`: which function and which of its probes.
    public var name: String
    /// The wasm export it calls.
    public var export: String
    /// The JSON text sent as the call's input, as the thunk sends it.
    public var input: String
    public var expected: JSONValue

    public init(name: String, export: String, input: String, expected: JSONValue) {
        self.name = name
        self.export = export
        self.input = input
        self.expected = expected
    }
}

enum GuestProbeCollector {
    static let marker = "@probe"

    static func probes(for plan: GuestExportPlan, in file: GuestSourceFile) throws(GuestBuildError) -> [GuestProbe] {
        // A property's probes call its getter: its setter shares the declaration, not the input.
        // An async function's export is a kickoff the pump drives, which a smoke probe (one packed
        // call) cannot run; `run` drives it (docs/async.md).
        guard !plan.name.isSetter, !plan.isAsync else { return [] }
        var probes: [GuestProbe] = []
        let location = GuestSourceLocation(file: file.relativePath, line: file.line(of: plan.decl))
        // Comments directly above the declaration live in the leading trivia of its first token.
        let trivia = plan.decl.leadingTrivia
        let commentLines = trivia.pieces.compactMap { piece -> String? in
            if case .lineComment(let text) = piece { return text }
            return nil
        }
        for text in commentLines {
            guard let range = text.range(of: marker) else { continue }
            let body = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard let (input, expectedText) = split(body) else {
                throw .invalidProbe(location: location, reason: "expected `<input JSON object> -> <expected JSON>`")
            }
            let expected: JSONValue
            do {
                expected = try JSONValue.parse(Array(expectedText.utf8))
            } catch {
                throw .invalidProbe(location: location, reason: "the expected result: \(error)")
            }
            probes.append(GuestProbe(name: "\(plan.name.declarationID) #\(probes.count + 1)", export: plan.name.jsonSymbol,
                                     input: input, expected: expected))
        }
        return probes
    }

    /// Splits at the `->` whose left side is a complete JSON object and right side valid JSON
    /// (an arrow inside a JSON string is not a separator).
    private static func split(_ body: String) -> (String, String)? {
        var searchStart = body.startIndex
        while let arrow = body.range(of: "->", range: searchStart..<body.endIndex) {
            let left = body[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
            let right = body[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
            if isJSON(left, objectOnly: true), isJSON(right, objectOnly: false) { return (left, right) }
            searchStart = arrow.upperBound
        }
        return nil
    }

    private static func isJSON(_ text: String, objectOnly: Bool) -> Bool {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return false }
        return !objectOnly || value is [String: Any]
    }
}
