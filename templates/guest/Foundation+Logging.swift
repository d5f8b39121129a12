// Guest Foundation layer (Foundation.swift): os.Logger and `print` over `patch.log`
// (sdk-contract §3.5: 0 debug, 1 info, 2 warning, 3 and up error; the SDK logs under its own
// subsystem, so the logger's subsystem and category are not sent).

// MARK: - Logger

struct Logger {
    init() {}
    init(subsystem: String, category: String) {}

    func trace(_ message: OSLogMessage) { _patchLog(0, message._text) }
    func debug(_ message: OSLogMessage) { _patchLog(0, message._text) }
    func info(_ message: OSLogMessage) { _patchLog(1, message._text) }
    func notice(_ message: OSLogMessage) { _patchLog(1, message._text) }
    func log(_ message: OSLogMessage) { _patchLog(1, message._text) }
    func warning(_ message: OSLogMessage) { _patchLog(2, message._text) }
    func error(_ message: OSLogMessage) { _patchLog(3, message._text) }
    func critical(_ message: OSLogMessage) { _patchLog(4, message._text) }
    func fault(_ message: OSLogMessage) { _patchLog(4, message._text) }
}

/// What `\(value, privacy: .private)` accepts; the SDK's log redacts nothing, so it is not sent.
struct OSLogPrivacy {
    static let auto = OSLogPrivacy()
    static let `public` = OSLogPrivacy()
    static let `private` = OSLogPrivacy()
    static let sensitive = OSLogPrivacy()
}

/// A Logger message: a string literal with interpolations, written out as `print` would.
struct OSLogMessage: ExpressibleByStringInterpolation {
    let _text: String

    init(stringLiteral value: String) { _text = value }
    init(stringInterpolation: StringInterpolation) { _text = stringInterpolation._text }

    struct StringInterpolation: StringInterpolationProtocol {
        var _text = ""

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { _text += literal }

        mutating func appendInterpolation(_ value: String, privacy: OSLogPrivacy = .auto) { _text += value }

        mutating func appendInterpolation(_ value: some CustomStringConvertible, privacy: OSLogPrivacy = .auto) {
            _text += value.description
        }
    }
}

func _patchLog(_ level: Int32, _ text: String) {
    _patchWithUTF8(text) { patch_log(level, $0, $1) }
}

// MARK: - print

/// The line `print` is writing, until its newline.
nonisolated(unsafe) var _patchPrintLine: [UInt8] = []

/// Embedded Swift's `print` writes each byte through C's `putchar`, which the freestanding guest
/// lacks (the link would fail): a line goes to `patch.log` at info level when its newline comes.
@_cdecl("putchar")
public func _patchPutchar(_ character: Int32) -> Int32 {
    if character == 10 {
        _patchPrintLine.withUnsafeBufferPointer { patch_log(1, $0.baseAddress, Int32($0.count)) }
        _patchPrintLine.removeAll(keepingCapacity: true)
    } else {
        _patchPrintLine.append(UInt8(truncatingIfNeeded: character))
    }
    return character
}
