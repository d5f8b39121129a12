import ArgumentParser
import Foundation
import PatchManifest

/// Shared by every subcommand: `--json`, `--quiet` and the human/JSON split of its output.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON envelope on stdout instead of human-readable text.")
    var json = false

    @Flag(help: "Print no progress on stderr (failures and their hints still go there).")
    var quiet = false
}

/// A failure as the user sees it: what kind, what happened, where and how to fix it, which exit code.
/// `hint` is not optional: every failure tells the user (or CI log reader) what to do next.
struct CommandFailure: Error {
    var kind: String
    var message: String
    var exitStatus: ExitStatus
    var hint: String
    /// More than the one-line `message` says (ArgumentParser's help and usage lines for a usage error).
    var detail: String? = nil
    /// The command's full result when it did its work and only a gate failed (`build`'s exits 35 and
    /// 36): CI reads the report from the failure envelope's `result`, in the success shape.
    var result: (any Encodable & Sendable)? = nil
}

/// Writes a command's output: human lines on stdout, progress on stderr, or, under `--json`,
/// exactly one envelope on stdout and nothing else there.
struct Console {
    let json: Bool
    /// Nil under `--quiet`.
    private let progressDisplay: ProgressDisplay?

    init(json: Bool, quiet: Bool = false) {
        self.json = json
        progressDisplay = quiet ? nil : ProgressDisplay(terminal: ProgressDisplay.stderrIsTerminal)
    }

    init(_ options: OutputOptions) { self.init(json: options.json, quiet: options.quiet) }

    /// A line of human-readable output; suppressed under `--json`, where the envelope says it all.
    func line(_ text: String) {
        guard !json else { return }
        // The status line shares the terminal: take it down, print, and let it come back below.
        progressDisplay?.clear()
        print(text)
    }

    /// A line of a long-running command's log (`serve`): on stderr in every mode, so `--json`
    /// keeps stdout to its envelope and a service manager still records it.
    func log(_ text: String) {
        Self.writeStandardError("\(TUFTime.format(Date())) \(text)\n")
    }

    /// A step of long work (`compiling the guest module…`), on stderr in every mode (under `--json`
    /// too: stdout keeps to the envelope): one updating status line on a terminal, a plain line
    /// otherwise (a CI log); nothing under `--quiet`.
    func progress(_ text: String) {
        progressDisplay?.show(text)
    }

    /// Writes to stderr after flushing stdout, so a log capturing both reads in the order written
    /// (stdout is block-buffered when it is a pipe, stderr is not buffered).
    static func writeStandardError(_ text: String) {
        fflush(nil)  // every C stream: stdout is the only one patchcli writes through stdio
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Runs a command body and reports its outcome: the result as the success envelope, a failure as
    /// the error envelope (or a message on stderr) plus its documented exit code.
    func perform<Result: Encodable>(_ command: String, _ body: () async throws -> Result) async throws {
        do {
            let result = try await body()
            progressDisplay?.finish()
            if json { emit(Envelope(ok: true, command: command, result: result, error: nil)) }
        } catch {
            progressDisplay?.finish()
            let failure = CommandFailure(error)
            emitFailure(command: command, failure)
            throw ExitCode(failure.exitStatus.rawValue)
        }
    }

    func emitFailure(command: String, _ failure: CommandFailure) {
        if json {
            // `message` is one line; what follows a multi-line message's first line (a list of
            // changes, a backtrace) leads `detail`.
            let lines = failure.message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let detail = ([lines.count > 1 ? lines[1] : nil, failure.detail].compactMap { $0 }).joined(separator: "\n")
            let error = Envelope<GateResult>.ErrorBody(
                kind: failure.kind, message: lines[0], hint: failure.hint, detail: detail.isEmpty ? nil : detail,
                exitCode: failure.exitStatus.rawValue)
            emit(Envelope<GateResult>(ok: false, command: command, result: failure.result.map(GateResult.init), error: error))
        } else {
            var text = "error: \(failure.message)\n"
            if let detail = failure.detail { text += detail + "\n" }
            text += "hint: \(failure.hint)\n"
            Self.writeStandardError(text)
        }
    }

    private func emit<Result: Encodable>(_ envelope: Envelope<Result>) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // Encoding our own plain structs cannot fail; if it ever does, say so (in the envelope's schema)
        // rather than print nothing.
        let data = (try? encoder.encode(envelope)) ?? (try? encoder.encode(Envelope<GateResult>(
            ok: false, command: envelope.command, result: nil,
            error: .init(kind: "internal", message: "could not encode the result", hint: CommandFailure.reportBug,
                         detail: nil, exitCode: ExitStatus.internalError.rawValue)))) ?? Data()
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// The one JSON shape every command prints under `--json` (documented in docs/cli.md).
struct Envelope<Result: Encodable>: Encodable {
    struct ErrorBody: Encodable {
        var kind: String
        var message: String
        var hint: String
        var detail: String?
        var exitCode: Int32
    }
    var ok: Bool
    var command: String
    var result: Result?
    var error: ErrorBody?
}

extension Double {
    /// Ratios and times in `--json` results carry 3 decimals (docs/cli-envelope.schema.json): more
    /// digits are noise to CI and make envelopes differ run to run for no reason.
    func rounded(toPlaces places: Int) -> Double {
        // Qualified: RealModule (swift-numerics, under AsyncHTTPClient) adds a static `Double.pow` that
        // unqualified lookup inside a Double extension would find first.
        let scale = Foundation.pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

/// A failure's `result` (see `CommandFailure.result`), encoded exactly as the command's success result.
struct GateResult: Encodable {
    let value: any Encodable

    func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
}

/// Progress on stderr: plain lines when stderr is not a terminal (CI logs keep every step), one
/// status line with a spinner, rewritten in place, when a person watches a terminal.
final class ProgressDisplay: @unchecked Sendable {
    static let stderrIsTerminal = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// Erases the terminal's current line and returns to its start.
    private static let eraseLine = "\r\u{1B}[2K"

    private let terminal: Bool
    /// Guards the fields below: the spinner's timer redraws from its own queue.
    private let lock = NSLock()
    private var text: String?
    private var frame = 0
    private var timer: DispatchSourceTimer?

    init(terminal: Bool) { self.terminal = terminal }

    func show(_ step: String) {
        guard terminal else {
            Console.writeStandardError(step + "\n")
            return
        }
        lock.withLock {
            text = step
            drawLocked()
            guard timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { [weak self] in
                guard let self else { return }
                lock.withLock {
                    frame += 1
                    drawLocked()
                }
            }
            timer.resume()
            self.timer = timer
        }
    }

    /// Takes the status line down (before a line of stdout); the next tick draws it again.
    func clear() {
        lock.withLock {
            guard terminal, text != nil else { return }
            Console.writeStandardError(Self.eraseLine)
        }
    }

    /// The command is done: the status line goes, for its output or its error to take the place.
    func finish() {
        lock.withLock {
            timer?.cancel()
            timer = nil
            if terminal, text != nil { Console.writeStandardError(Self.eraseLine) }
            text = nil
        }
    }

    private func drawLocked() {
        guard let text else { return }
        Console.writeStandardError("\(Self.eraseLine)\(Self.frames[frame % Self.frames.count]) \(text)")
    }
}
