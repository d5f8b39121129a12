import Foundation
import PatchManifest
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// `serve`'s request log: one line per answered request (docs/serve.md, "Request log"), in logfmt
/// or as one JSON object per line, on stderr or appended to a file. Device ids and app keys are
/// never written: a device appears as its bucket, an app as a hash of its key.
///
/// Requests never wait for the log: `write` queues the line and a thread of the log's own writes
/// it, so a slow disk or a stderr pipe nobody reads cannot stall the event loop. The queue holds at
/// most `capacity` lines; a line that finds it full, or that the file refuses (disk full), is
/// dropped and counted (`droppedLines`, exposed as a metric), never lost silently. `close` writes
/// what is queued before it returns.
public final class RequestLog: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case logfmt, json
    }

    public let format: Format
    private let queue: LineQueue

    /// Lines queued at most: about 2 MB of log, seconds of a busy server's requests.
    public static let defaultCapacity = 10_000

    /// A log on stderr (`path` nil) or appended to `path`, created if missing.
    public init(format: Format, path: String?, capacity: Int = defaultCapacity) throws(RequestLogError) {
        self.format = format
        var descriptor = STDERR_FILENO
        if let path {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        }
        let lines = LineQueue(descriptor: descriptor, ownsDescriptor: path != nil, capacity: capacity)
        queue = lines
        let writer = Thread { lines.drain() }
        writer.name = "patchcli-request-log"
        writer.start()
    }

    deinit { queue.close() }

    /// Lines dropped so far: the queue was full, the log was closed, or the file refused them.
    public var droppedLines: Int { queue.dropped }

    /// Waits until every line queued so far is written (or dropped), then stops the writer; lines
    /// after it are dropped. What `serve` does once it stops answering (SIGTERM, SIGINT).
    public func close() { queue.close() }

    /// One request as the log shows it.
    public struct Entry: Sendable, Equatable {
        public var time: Date
        public var method: String
        public var path: String
        public var status: Int
        public var milliseconds: Double
        /// `RequestLog.appTag(ofKey:)` of the request's `app_key`, when it sent one.
        public var app: String?
        /// `RequestLog.deviceBucket(of:)` of the request's `device_id`, when it sent one.
        public var device: String?

        package init(time: Date, method: String, path: String, status: Int, milliseconds: Double, app: String?, device: String?) {
            self.time = time
            self.method = method
            self.path = path
            self.status = status
            self.milliseconds = milliseconds
            self.app = app
            self.device = device
        }
    }

    /// Queues the entry's line; never blocks on the log's file or pipe.
    public func write(_ entry: Entry) {
        queue.append(Array((format == .json ? entry.json : entry.logfmt).utf8) + [UInt8(ascii: "\n")])
    }

    /// Which of 65,536 buckets a device id falls in: the first two bytes of SHA-256(device_id) as
    /// 4 hex digits. Follows one device through the log; many devices share a bucket, and the id
    /// cannot be read back.
    public static func deviceBucket(of deviceID: String) -> String {
        String(SHA256Hasher.hex(of: Array(deviceID.utf8)).prefix(4))
    }

    /// An app in the log: the first 8 hex digits of SHA-256(app_key) (`printf %s KEY | sha256sum`).
    public static func appTag(ofKey appKey: String) -> String {
        String(SHA256Hasher.hex(of: Array(appKey.utf8)).prefix(8))
    }
}

#if canImport(Darwin)
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#else
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#endif

/// The request log's queue and its writer thread's loop. Lines go out in batches of whole lines of
/// at most `PIPE_BUF` bytes (a longer line alone), each batch one `write`: one thread writes them in
/// order, so this process's lines never interleave, and a write that size is atomic even on a pipe
/// or a file other processes append to.
private final class LineQueue: @unchecked Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let capacity: Int
    /// Guards everything below; signalled when lines arrive, a batch is written, or it closes.
    private let condition = NSCondition()
    private var lines: [[UInt8]] = []
    /// Lines the writer took and is writing: they count against `capacity` until written.
    private var inFlight = 0
    private var closed = false
    /// The writer wrote (or dropped) everything and closed its file: `close` returns.
    private var finished = false
    private var droppedCount = 0

    init(descriptor: Int32, ownsDescriptor: Bool, capacity: Int) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.capacity = capacity
    }

    var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }

    func append(_ line: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, lines.count + inFlight < capacity else {
            droppedCount += 1
            return
        }
        lines.append(line)
        condition.signal()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// The writer thread: takes every queued line, writes them in batches outside the lock, and
    /// stops once closed and empty.
    func drain() {
        condition.lock()
        while true {
            while lines.isEmpty, !closed { condition.wait() }
            if lines.isEmpty { break }
            let taken = lines
            lines.removeAll(keepingCapacity: true)
            inFlight = taken.count
            condition.unlock()
            var unwritten = 0
            var batch: [UInt8] = []
            for line in taken {
                if !batch.isEmpty, batch.count + line.count > Int(PIPE_BUF) {
                    unwritten += Self.write(batch, to: descriptor)
                    batch.removeAll(keepingCapacity: true)
                }
                batch += line
            }
            unwritten += Self.write(batch, to: descriptor)
            condition.lock()
            inFlight = 0
            droppedCount += unwritten
        }
        if ownsDescriptor { systemClose(descriptor) }
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Writes `bytes` whole (retrying short writes); returns how many of its lines did not make it
    /// when the descriptor refuses (disk full, a closed pipe).
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return buffer[offset...].filter { $0 == UInt8(ascii: "\n") }.count }
                offset += written
            }
            return 0
        }
    }
}

/// Why the request log cannot be used.
public enum RequestLogError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "\(path): cannot open the request log for appending (\(reason)); check the path and its directory's permissions"
        }
    }
}

extension RequestLog.Entry {
    /// `time=… method=POST path=/api/v1/modules/check status=200 ms=0.412 app=1a2b3c4d device=3f1c`;
    /// `app` and `device` only when the request carried them. A value with a space, `=`, `"`, a
    /// backslash, a control character or anything outside ASCII is quoted, with `"` and `\`
    /// escaped and control characters written as `\u{1B}`, so one request is always one line.
    var logfmt: String {
        var fields = [
            ("time", Self.timestamp(time)), ("method", method), ("path", path), ("status", String(status)),
            ("ms", Self.milliseconds(milliseconds)),
        ]
        if let app { fields.append(("app", app)) }
        if let device { fields.append(("device", device)) }
        return fields.map { "\($0.0)=\(Self.logfmtValue($0.1))" }.joined(separator: " ")
    }

    /// The same fields as one JSON object, keys in the logfmt order; `status` an integer, `ms` a
    /// number.
    var json: String {
        var object = [
            "\"time\":\(Self.jsonString(Self.timestamp(time)))", "\"method\":\(Self.jsonString(method))", "\"path\":\(Self.jsonString(path))",
            "\"status\":\(status)", "\"ms\":\(Self.milliseconds(milliseconds))",
        ]
        if let app { object.append("\"app\":\(Self.jsonString(app))") }
        if let device { object.append("\"device\":\(Self.jsonString(device))") }
        return "{\(object.joined(separator: ","))}"
    }

    /// UTC with milliseconds, e.g. `2026-11-27T08:15:02.123Z`; by hand from `gmtime_r`, which costs
    /// a fraction of a date formatter on every request.
    package static func timestamp(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = milliseconds % 1000
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))."
            + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)Z"
    }

    /// A duration in milliseconds with three decimals (microseconds), e.g. `0.412`.
    package static func milliseconds(_ value: Double) -> String { value.fixed(places: 3) }

    package static func logfmtValue(_ value: String) -> String {
        // Bytes, not scalars: paths and hashes are ASCII, and this runs for every request.
        let plain = !value.isEmpty && value.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        if plain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.isControlCharacter: quoted += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    static func jsonString(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // Encoding a String cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
