import Foundation
import Testing

@testable import PatchRuntime

/// The `--fixtures FILE` format.
@Suite struct BridgeFixturesTests {
    @Test func parsesURLAndMethodKeysTextAndBase64Bodies() throws {
        let json = """
            {
              "https://api.example.com/a": {"body": "hello"},
              "post https://api.example.com/b": {"status": 201, "body_base64": "AAEC/w=="},
              "DELETE https://api.example.com/c": {"status": 204}
            }
            """
        let fixtures = try NetworkFixtures.parse(Data(json.utf8), source: "f.json")
        #expect(fixtures.response(method: "", url: "https://api.example.com/a") == .init(status: 200, body: Array("hello".utf8)))
        #expect(fixtures.response(method: "GET", url: "https://api.example.com/a")?.status == 200)
        #expect(fixtures.response(method: "POST", url: "https://api.example.com/a") == nil)
        #expect(fixtures.response(method: "post", url: "https://api.example.com/b") == .init(status: 201, body: [0, 1, 2, 255]))
        #expect(fixtures.response(method: "DELETE", url: "https://api.example.com/c") == .init(status: 204, body: []))
    }

    @Test func rejectsMalformedFilesWithTheEntryNamed() {
        func error(_ json: String) -> NetworkFixturesError? {
            do {
                _ = try NetworkFixtures.parse(Data(json.utf8), source: "f.json")
                return nil
            } catch {
                return error
            }
        }
        #expect(error("[1]") == .notAnObject(source: "f.json"))
        if case .malformedJSON(let source, _)? = error("{") {
            #expect(source == "f.json")
        } else {
            Issue.record("invalid JSON must be reported as malformedJSON")
        }
        #expect(error(#"{"u": 3}"#)?.description.contains(#"entry "u""#) == true)
        #expect(error(#"{"u": {"status": "200"}}"#)?.description.contains("\"status\" must be an integer") == true)
        #expect(error(#"{"u": {"body": "a", "body_base64": "YQ=="}}"#)?.description.contains("not both") == true)
        #expect(error(#"{"u": {"body_base64": "***"}}"#)?.description.contains("valid base64") == true)
        #expect(error(#"{"u": {"bdy": "a"}}"#)?.description.contains(#"unknown field "bdy""#) == true)
        #expect(error(#"{"u": {}, "GET u": {}}"#)?.description.contains("duplicates") == true)
    }
}
