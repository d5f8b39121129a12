import Foundation
import HummingbirdTesting
import PatchServer
import Testing
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The request log's writer thread (docs/serve.md "Request log"): requests only queue their line;
/// lines are whole, in one piece each, and every line is either written or counted as dropped.
struct RequestLogWriterTests {
    private static func entry(_ writer: Int, _ index: Int) -> RequestLog.Entry {
        // Paths of different lengths, some longer than one pipe write, so batches split everywhere.
        RequestLog.Entry(
            time: Date(), method: "GET", path: "/targets/\(writer)/\(index)/" + String(repeating: "x", count: (index * 37) % 700),
            status: 200, milliseconds: 0.5, app: nil, device: nil)
    }

    @Test func linesOfConcurrentRequestsAreWrittenWholeAndAllThereAfterClose() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("requestlog-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try RequestLog(format: .json, path: path)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask { for index in 0..<500 { log.write(Self.entry(writer, index)) } }
            }
        }
        log.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4_000)
        #expect(log.droppedLines == 0)
        let paths = Set(lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
        })
        #expect(paths.count == 4_000, "every line parses on its own: none interleaved with another")
    }

    /// A FIFO nobody reads stands for a stalled stderr pipe: writes queue until the queue is full,
    /// then lines are dropped and counted, and the requests never wait. Once read, every line is
    /// either in the pipe or in the count.
    @Test func aStalledLogDropsLinesAndCountsThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("requestlog-\(UUID().uuidString).fifo").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let reader = open(path, O_RDONLY | O_NONBLOCK)  // opened first: the log's open would wait for a reader
        try #require(reader >= 0)
        defer { closeDescriptor(reader) }
        let log = try RequestLog(format: .logfmt, path: path, capacity: 100)
        let started = ContinuousClock.now
        for index in 0..<5_000 { log.write(Self.entry(0, index)) }
        #expect(ContinuousClock.now - started < .seconds(2), "writing never waits for the pipe")
        #expect(log.droppedLines > 0, "the pipe (64 KiB) and the queue (100 lines) cannot hold 5000 lines")

        let drained = PipeReader(reader)
        log.close()
        let read = drained.wait()
        #expect(read.split(separator: UInt8(ascii: "\n")).count + log.droppedLines == 5_000, "written or counted: never lost silently")
    }

    @Test func droppedLinesAreAMetric() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let log = try RequestLog(format: .logfmt, path: fixture.directory.appendingPathComponent("requests.log").path, capacity: 0)
        let server = UpdateServer(store: fixture.store, events: fixture.events, configuration: ServerConfiguration(requestLog: log))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let before = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(before.contains("patchcli_serve_log_lines_dropped_total 0\n"), "\(before)")
            _ = try await client.execute(uri: "/nowhere", method: .get)
            let after = String(buffer: try await client.execute(uri: UpdateServer.metricsPath, method: .get).body)
            #expect(after.contains("patchcli_serve_log_lines_dropped_total 2\n"), "the first scrape's line and the 404's: \(after)")
        }
        log.close()
    }
}

#if canImport(Darwin)
private let closeDescriptor = Darwin.close
#else
private let closeDescriptor = Glibc.close
#endif

/// Reads a non-blocking descriptor to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes: [UInt8] = []

    init(_ descriptor: Int32) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 { bytes += buffer[..<count]; continue }
                if count == 0 { break }  // every writer closed: the end
                if errno == EAGAIN || errno == EINTR { usleep(1_000); continue }
                break
            }
            done.signal()
        }
    }

    func wait() -> [UInt8] {
        done.wait()
        return bytes
    }
}
