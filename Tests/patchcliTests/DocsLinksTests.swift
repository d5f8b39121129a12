import Foundation
import Testing

/// README.md and docs/*.md link only files inside the repository: every relative link resolves (its
/// `#anchor` to a heading of the Markdown file it names), no link leaves the checkout or is an
/// absolute path of one machine, and no text points readers at the notes beside the repository.
@Suite struct DocsLinksTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().standardizedFileURL

    static func documents() throws -> [URL] {
        let docs = repository.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [repository.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    }

    /// Markdown without its fenced code blocks, where `[x](y)` is code rather than a link.
    static func prose(_ text: String) -> String {
        text.replacing(/(?ms)^```.*?^```/, with: "")
    }

    /// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces
    /// as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || " -_".unicodeScalars.contains($0) })
            .replacingOccurrences(of: " ", with: "-")
    }

    static func anchors(of file: URL) throws -> Set<String> {
        let text = prose(try String(contentsOf: file, encoding: .utf8))
        return Set(text.matches(of: /(?m)^#+ (.+)$/).map { anchor(String($0.output.1)) })
    }

    @Test func everyRelativeLinkResolvesInsideTheRepository() throws {
        var problems: [String] = []
        for document in try Self.documents() {
            let name = document.path.replacingOccurrences(of: Self.repository.path + "/", with: "")
            let text = Self.prose(try String(contentsOf: document, encoding: .utf8))
            for match in text.matches(of: /\[[^\]]*\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                if target.firstMatch(of: /^[a-z]+:/) != nil { continue }  // https:, mailto:
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? document
                    : document.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                guard !parts[0].hasPrefix("/"), file.path.hasPrefix(Self.repository.path + "/") else {
                    problems.append("\(name): \(target) leaves the repository")
                    continue
                }
                guard FileManager.default.fileExists(atPath: file.path) else {
                    problems.append("\(name): \(target) does not exist")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md", !(try Self.anchors(of: file)).contains(parts[1]) {
                    problems.append("\(name): \(target) names no heading of \(parts[0].isEmpty ? name : parts[0])")
                }
            }
            for match in text.matches(of: /\.\.\/shared\/[^\s)`]*/) {
                problems.append("\(name): refers to \(match.output) outside the repository")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckerCatchesWhatItForbids() throws {
        #expect(Self.anchor("`--json`: one stable envelope") == "--json-one-stable-envelope")
        #expect(Self.anchor("Limits, and what a device should enforce") == "limits-and-what-a-device-should-enforce")
        #expect(Self.prose("a\n```\n[x](nowhere.md)\n```\nb") == "a\n\nb")
    }
}
