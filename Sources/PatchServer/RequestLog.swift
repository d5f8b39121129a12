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
public final class RequestLog: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case logfmt, json
    }

    public let format: Format
    /// stderr, or the log file opened for appending; each line is one `write`, so lines of
    /// concurrent requests (and of several servers appending to one file) never interleave.
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// A log on stderr (`path` nil) or appended to `path`, created if missing.
    public init(format: Format, path: String?) throws(RequestLogError) {
        self.format = format
        guard let path else {
            descriptor = STDERR_FILENO
            ownsDescriptor = false
            return
        }
        let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        descriptor = opened
        ownsDescriptor = true
    }

    deinit { if ownsDescriptor { close(descriptor) } }

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
    }

    public func write(_ entry: Entry) {
        let line = Array((format == .json ? entry.json : entry.logfmt).utf8) + [UInt8(ascii: "\n")]
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                // A log that cannot be written (disk full) must not fail or stall the answer.
                guard written > 0 else { return }
                offset += written
            }
        }
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
#else
private let systemWrite = Glibc.write
#endif

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
    package static func milliseconds(_ value: Double) -> String {
        let microseconds = Int((value * 1000).rounded())
        let fraction = microseconds % 1000
        return "\(microseconds / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }

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
