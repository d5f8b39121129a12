import APNsTestServer
import Foundation
import Testing

/// `release --notify` and `serve --notify-on-publish` end to end: the real CLI sending over HTTP/2
/// to a mock APNs on loopback (`MockAPNs`) that checks the provider token's signature, the headers
/// and the payload.
@Suite struct NotifyCLITests {
    static func token(_ n: Int) -> String { String(format: "%064x", n) }

    /// No `PATCHCLI_APNS_*` from the machine, and a home without `~/.config/patch/apns/`.
    static func environment(_ directory: URL) -> [String: String] {
        var environment = ["HOME": directory.path]
        for name in ["CREDENTIALS", "TEAM_ID", "KEY_ID", "KEY", "KEY_FILE", "TOPIC", "ENVIRONMENT"] { environment["PATCHCLI_APNS_\(name)"] = "" }
        return environment
    }

    static func withStore<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReleaseCommandTests.prepare(directory)
        return try await body(directory)
    }

    static func write(_ text: String, to name: String, in directory: URL) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    @Test func withoutCredentialsThePayloadIsWrittenForTheTeamsPushService() async throws {
        try await Self.withStore { directory in
            let env = Self.environment(directory)
            let human = try CLI.run(["release", "a.wasm", "--store", "store", "--key-dir", "keys", "--fingerprint", "fp-1", "--app-key", "demo", "--notify"], in: directory, environment: env)
            #expect(human.status == 0, "\(human.stderr)")
            let version = try #require(human.stdout.firstMatch(of: /version (1-[0-9a-f]{12})/)?.output.1)
            #expect(human.stdout.contains("no APNs credentials configured"))
            #expect(human.stdout.contains(#"{"aps":{"content-available":1},"patch":{"app":"demo","channel":"production","version":"\#(version)"}}"#), "\(human.stdout)")

            let json = try ReleaseCommandTests.publish("b.wasm", in: directory, extra: ["--app-key", "demo", "--notify", "--notify-payload-out", "push.json"], environment: env)
            #expect(json.status == 0, "\(json.stdout)")
            let notify = try #require(json.result?["notify"] as? [String: Any])
            let push = try #require(notify["push"] as? [String: Any])
            let patch = try #require(push["patch"] as? [String: String])
            #expect(patch["channel"] == "production" && patch["app"] == "demo" && patch["version"]?.hasPrefix("2-") == true)
            #expect(notify["apns"] == nil && notify["payload_file"] as? String == "push.json")
            let written = try String(contentsOf: directory.appendingPathComponent("push.json"), encoding: .utf8)
            #expect(written == #"{"aps":{"content-available":1},"patch":{"app":"demo","channel":"production","version":"\#(patch["version"]!)"}}"# + "\n")
            // The store's records are still the top level of the result.
            #expect((json.result?["records"] as? [[String: Any]])?.count == 1)

            let dryRun = try ReleaseCommandTests.publish("c.wasm", in: directory, extra: ["--notify", "--dry-run"], environment: env)
            #expect(dryRun.status == 0 && (dryRun.result?["notify"] as? [String: Any])?["push"] != nil, "\(dryRun.stdout)")

            // Tokens but no credentials anywhere: nothing could send to them.
            try Self.write("\(Self.token(1))\n", to: "tokens.txt", in: directory)
            let noCredentials = try ReleaseCommandTests.publish("c.wasm", in: directory, extra: ["--app-key", "demo", "--notify", "--device-tokens", "tokens.txt"], environment: env)
            #expect(noCredentials.status == 70, "\(noCredentials.stdout)")
            #expect(noCredentials.error?["message"] as? String == "no APNs credentials (looked in --apns-credentials, PATCHCLI_APNS_*, \(directory.path)/.config/patch/apns/demo.json)")
            let serveWithout = try CLI.run(["serve", "--store", "store", "--port", "0", "--notify-on-publish", "--device-tokens", "tokens.txt", "--json"], in: directory, environment: env)
            #expect(serveWithout.status == 70 && serveWithout.error?["kind"] as? String == "apns_credentials", "\(serveWithout.stdout)")
        }
    }

    @Test func withCredentialsItSendsOverAPNsAndListsInvalidTokens() async throws {
        try await Self.withStore { directory in
            let team = TestTeam()
            let mock = try MockAPNs(team: team, script: [Self.token(2): Array(repeating: .error(status: 410, reason: "Unregistered", timestamp: 1_790_000_000_000), count: 3)])
            defer { mock.stop() }
            let credentials = try team.writeCredentials(in: directory)
            let ca = try MockAPNs.writeCA(in: directory)
            try Self.write("# beta testers\n\(Self.token(1))\n\(Self.token(2))\n\(Self.token(3).uppercased())\n", to: "tokens.txt", in: directory)
            let apns = ["--notify", "--device-tokens", "tokens.txt", "--apns-credentials", credentials, "--apns-endpoint", mock.endpoint, "--apns-ca", ca]

            let result = try ReleaseCommandTests.publish("a.wasm", in: directory, extra: ["--app-key", "demo"] + apns, environment: Self.environment(directory))
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            let notify = try #require(result.result?["notify"] as? [String: Any])
            let sent = try #require(notify["apns"] as? [String: Any])
            #expect(sent["devices"] as? Int == 3 && sent["topic"] as? String == team.topic)
            let summary = try #require(sent["summary"] as? [String: Any])
            #expect(summary["sent"] as? Int == 2 && summary["retried"] as? Int == 0)
            let invalid = try #require(summary["invalid"] as? [[String: Any]])
            #expect(invalid.count == 1 && invalid[0]["token"] as? String == Self.token(2) && invalid[0]["reason"] as? String == "Unregistered")

            let version = try #require(((result.result?["records"] as? [[String: Any]])?.first?["version"]) as? String)
            let expected = Array(#"{"aps":{"content-available":1},"patch":{"app":"demo","channel":"production","version":"\#(version)"}}"#.utf8)
            #expect(mock.received.count == 3 && mock.received.allSatisfy { $0.payload == expected })
            #expect(Set(mock.received.compactMap(\.providerToken)).count == 1)

            let human = try ReleaseCommandTests.publish("b.wasm", in: directory, extra: apns, environment: Self.environment(directory))
            #expect(human.status == 0)
            let text = try CLI.run(["release", "c.wasm", "--store", "store", "--key-dir", "keys", "--fingerprint", "fp-1"] + apns, in: directory, environment: Self.environment(directory))
            #expect(text.stdout.contains("notified 3 device(s) via \(mock.endpoint)"), "\(text.stdout)")
            #expect(text.stdout.contains("invalid token \(Self.token(2)): 410 Unregistered since 2026-"), "\(text.stdout)")
        }
    }

    @Test func badCredentialsAndTokensStopTheReleaseBeforeAnythingIsPublished() async throws {
        try await Self.withStore { directory in
            let team = TestTeam()
            let credentials = try team.writeCredentials(in: directory)
            try Self.write("\(Self.token(1))\nnot-a-token\n", to: "bad-tokens.txt", in: directory)
            try Self.write("\(Self.token(1))\n", to: "tokens.txt", in: directory)
            let env = Self.environment(directory)
            func release(_ extra: [String], environment: [String: String] = [:]) throws -> CLIResult {
                try ReleaseCommandTests.publish("a.wasm", in: directory, extra: ["--notify"] + extra, environment: env.merging(environment) { $1 })
            }
            let badToken = try release(["--device-tokens", "bad-tokens.txt", "--apns-credentials", credentials])
            #expect(badToken.status == 4 && badToken.error?["kind"] as? String == "malformed_input")
            #expect((badToken.error?["message"] as? String)?.hasPrefix("bad-tokens.txt:2: \"not-a-token\" is not a hex device token") == true, "\(badToken.stdout)")

            let noTokens = try release(["--apns-credentials", credentials])
            #expect(noTokens.status == 2)
            let tokensWithoutNotify = try ReleaseCommandTests.publish("a.wasm", in: directory, extra: ["--device-tokens", "tokens.txt"], environment: env)
            #expect(tokensWithoutNotify.status == 2 && (tokensWithoutNotify.error?["message"] as? String)?.contains("--device-tokens is an option of --notify") == true, "\(tokensWithoutNotify.stdout)")

            try Self.write("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", to: "AuthKey_\(team.keyID).p8", in: directory)
            let badKey = try release(["--device-tokens", "tokens.txt", "--apns-credentials", credentials])
            #expect(badKey.status == 70 && badKey.error?["kind"] as? String == "apns_credentials")
            #expect((badKey.error?["message"] as? String)?.contains("PKCS#8 P-256") == true, "\(badKey.stdout)")

            let shortKeyID = try release(["--device-tokens", "tokens.txt"], environment: ["PATCHCLI_APNS_KEY": team.p8, "PATCHCLI_APNS_KEY_ID": "ABC", "PATCHCLI_APNS_TEAM_ID": team.teamID, "PATCHCLI_APNS_TOPIC": team.topic])
            #expect(shortKeyID.status == 70)
            #expect((shortKeyID.error?["message"] as? String)?.contains("PATCHCLI_APNS_KEY_ID: the key id is 10 upper-case letters and digits") == true, "\(shortKeyID.stdout)")

            let noTopic = try release(["--device-tokens", "tokens.txt"], environment: ["PATCHCLI_APNS_KEY": team.p8, "PATCHCLI_APNS_KEY_ID": team.keyID, "PATCHCLI_APNS_TEAM_ID": team.teamID])
            #expect(noTopic.status == 70 && (noTopic.error?["message"] as? String)?.contains("no APNs topic") == true, "\(noTopic.stdout)")

            // Nothing was published: the next release is the channel's first.
            let first = try ReleaseCommandTests.publish("a.wasm", in: directory, environment: env)
            #expect((first.result?["records"] as? [[String: Any]])?.first?["release_counter"] as? Int == 1, "\(first.stdout)")
        }
    }

    @Test func failedDeliveriesAndRefusedCredentialsHaveTheirExitCodes() async throws {
        try await Self.withStore { directory in
            let team = TestTeam()
            let credentials = try team.writeCredentials(in: directory)
            let ca = try MockAPNs.writeCA(in: directory)
            try Self.write("\(Self.token(1))\n\(Self.token(2))\n", to: "tokens.txt", in: directory)
            let env = Self.environment(directory)

            let mock = try MockAPNs(team: team, script: [Self.token(2): [.error(status: 413, reason: "PayloadTooLarge")]])
            defer { mock.stop() }
            let apns = ["--notify", "--device-tokens", "tokens.txt", "--apns-credentials", credentials, "--apns-ca", ca]
            let failed = try ReleaseCommandTests.publish("a.wasm", in: directory, extra: apns + ["--apns-endpoint", mock.endpoint], environment: env)
            #expect(failed.status == 71 && failed.error?["kind"] as? String == "notify_failed", "\(failed.stdout)")
            #expect((failed.error?["message"] as? String)?.contains("1 of 2 push(es) failed after retries") == true)
            let failures = ((failed.result?["notify"] as? [String: Any])?["apns"] as? [String: Any]).flatMap { ($0["summary"] as? [String: Any])?["failed"] as? [[String: Any]] }
            #expect(failures?.first?["token"] as? String == Self.token(2) && failures?.first?["status"] as? Int == 413)

            // APNs does not know this key (another team's mock): refused after one fresh token.
            let stranger = try MockAPNs(team: TestTeam())
            defer { stranger.stop() }
            let refused = try ReleaseCommandTests.publish("b.wasm", in: directory, extra: apns + ["--apns-endpoint", stranger.endpoint], environment: env)
            #expect(refused.status == 70, "\(refused.stdout)")
            #expect((refused.error?["message"] as? String)?.contains("but notifying devices stopped: APNs refused the credentials: 403 InvalidProviderToken") == true, "\(refused.stdout)")
            // One fresh token after the first refusal, then no more: the run stops at the second.
            #expect(Set(stranger.received.compactMap(\.providerToken)).count == 2)
            #expect(stranger.received.allSatisfy { $0.reason == "InvalidProviderToken" })
        }
    }

    @Test func serveNotifiesOnPublish() async throws {
        try await Self.withStore { directory in
            let team = TestTeam()
            let mock = try MockAPNs(team: team)
            defer { mock.stop() }
            let credentials = try team.writeCredentials(in: directory)
            let ca = try MockAPNs.writeCA(in: directory)
            try Self.write("\(Self.token(1))\n\(Self.token(2))\n", to: "tokens.txt", in: directory)
            let earlier = try ReleaseCommandTests.publish("a.wasm", in: directory, extra: ["--app-key", "demo"])
            #expect(earlier.status == 0)

            let (server, _) = try ServeCommandTests.startServer(in: directory, extra: [
                "--notify-on-publish", "--notify-interval", "0.2", "--device-tokens", "tokens.txt",
                "--apns-credentials", credentials, "--apns-endpoint", mock.endpoint, "--apns-ca", ca,
            ])
            defer { if server.isRunning { server.terminate() } }
            try await Task.sleep(for: .seconds(1))
            #expect(mock.received.isEmpty, "the release there before the server started is not announced")

            let published = try ReleaseCommandTests.publish("b.wasm", in: directory, extra: ["--app-key", "demo"])
            let version = try #require(((published.result?["records"] as? [[String: Any]])?.first?["version"]) as? String)
            let deadline = Date().addingTimeInterval(20)
            while mock.received.count < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
            let expected = Array(#"{"aps":{"content-available":1},"patch":{"app":"demo","channel":"production","version":"\#(version)"}}"#.utf8)
            #expect(mock.received.count == 2 && mock.received.allSatisfy { $0.payload == expected && $0.status == 200 })
            #expect(Set(mock.received.map(\.token)) == [Self.token(1), Self.token(2)])
        }
    }
}
