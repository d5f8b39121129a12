import Foundation
import Testing

/// A changed `// @patchable` function calling Foundation's String and URL API ships through
/// `patchcli build` (the guest Foundation layer compiles it) and `patchcli run` answers as the same
/// code does natively against Foundation.
@Suite(.serialized) struct FoundationStringsCLITests {
    static let validationFile = "Sources/ShopCore/Validation.swift"

    /// The edited checks, natively: what the module must answer.
    static func nativeProblems(name: String, email: String) -> [String] {
        var problems: [String] = []
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append("emptyName") }
        let address = email.trimmingCharacters(in: .whitespaces).components(separatedBy: "@")
        if address.count != 2 || URLComponents(string: "https://" + address[1])?.host?.contains(".") != true { problems.append("invalidEmail") }
        return problems
    }

    @Test func aChangedFunctionUsingTrimmingComponentsAndURLComponentsShipsAndAnswersAsFoundation() throws {
        try withScratchDirectory { directory in
            let project = try BuildCLITests.initializedExample(in: directory)
            try BuildCLITests.edit(project, Self.validationFile, replacing: "public enum CheckoutValidation {",
                                   with: "import Foundation\n\npublic enum CheckoutValidation {")
            try BuildCLITests.edit(project, Self.validationFile, replacing: """
                        if name.trimmingWhitespace().isEmpty { problems.append(.emptyName) }
                        if !isPlausibleEmail(email) { problems.append(.invalidEmail) }
                """, with: """
                        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append(.emptyName) }
                        let address = email.trimmingCharacters(in: .whitespaces).components(separatedBy: "@")
                        if address.count != 2 || URLComponents(string: "https://" + address[1])?.host?.contains(".") != true { problems.append(.invalidEmail) }
                """)
            // Embedded Swift has no key paths: the function's own `allSatisfy(\.isNumber)` becomes a closure.
            try BuildCLITests.edit(project, Self.validationFile, replacing: #"!postalCode.allSatisfy(\.isNumber)"#, with: "!postalCode.allSatisfy({ $0.isNumber })")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let changes = try #require(build.result?["changes"] as? [[String: Any]], "\(build.stdout)")
            #expect(changes.map { "\($0["id"] ?? "") \($0["status"] ?? "")" } == [
                "ShopCore:CheckoutValidation.problems(name:String,email:String,postalCode:String,region:Region) patched",
            ], "\(build.stdout)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            // Ideographic and no-break spaces, a trailing space trimmed away, a space in the host
            // (URLComponents rejects it), two @s, a host without a dot.
            let cases: [(name: String, email: String)] = [
                ("Ada", "ada@example.com"), ("\u{3000}\n", "ada@example.com "), ("\u{A0}Ada", "ada@exa mple.com"),
                ("Ada", "a@b@c.com"), ("Ada", "ada@localhost"), ("", "@"),
            ]
            for (name, email) in cases {
                let input = try JSONSerialization.data(withJSONObject: ["name": name, "email": email, "postalCode": "12345", "region": "domestic"])
                let run = try CLI.run(["run", module, BuildCLITests.validationExport, "--input", String(decoding: input, as: UTF8.self), "--decode", "text", "--json"])
                #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
                let output = try #require(run.result?["output"] as? String, "\(run.stdout)")
                let value = (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["value"] as? [String]
                #expect(value == Self.nativeProblems(name: name, email: email), "name \(name.debugDescription), email \(email.debugDescription): \(output)")
            }
        }
    }
}
