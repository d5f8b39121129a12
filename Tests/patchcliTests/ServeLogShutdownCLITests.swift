import Foundation
import Testing

/// `serve`'s request log is written by a thread of its own (docs/serve.md "Request log"): SIGTERM
/// right after a burst of requests still leaves one line per answered request in the file.
@Suite struct ServeLogShutdownCLITests {
    @Test func sigtermFlushesEveryLineOfABurst() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let (server, base) = try ServeCommandTests.startServer(in: directory, extra: ["--log-format", "json", "--log-file", "requests.log"])
            defer { if server.isRunning { server.terminate() } }
            let port = try #require(base.split(separator: ":").last.map(String.init))
            // 8 keep-alive clients, 100 checks each; the script returns once every answer is in.
            let client = Process()
            client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            client.arguments = ["python3", "-c", """
                import http.client, json, sys, threading
                def device(number):
                    connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
                    for index in range(100):
                        body = json.dumps({"current_version": "0.0.0", "fingerprint": "fp-1", "device_id": f"d{number}-{index}", "channel": "production"})
                        connection.request("POST", "/api/v1/modules/check", body, {"Content-Type": "application/json"})
                        assert connection.getresponse().read()
                threads = [threading.Thread(target=device, args=(number,)) for number in range(8)]
                for thread in threads: thread.start()
                for thread in threads: thread.join()
                """, port]
            try client.run()
            client.waitUntilExit()
            try #require(client.terminationStatus == 0)
            server.terminate()
            server.waitUntilExit()
            #expect(server.terminationStatus == 0)

            let text = try String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)
            let lines = text.split(separator: "\n")
            #expect(lines.count == 800, "one line per answered check, all written before exit")
            #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "whole lines only")
        }
    }
}
