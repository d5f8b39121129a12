import ArgumentParser
import Foundation
import PatchManifest

/// Shared by every subcommand: `--json` and the human/JSON split of its output.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON envelope on stdout instead of human-readable text.")
    var json = false
}

/// A failure as the user sees it: what kind, what happened, where and how to fix it, which exit code.
struct CommandFailure: Error {
    var kind: String
    var message: String
    var exitStatus: ExitStatus
    var hint: String?
    /// More than the one-line `message` says (ArgumentParser's help and usage lines for a usage error).
    var detail: String? = nil
    /// The command's full result when it did its work and only a gate failed (`build`'s exits 35 and
    /// 36): CI reads the report from the failure envelope's `result`, in the success shape.
    var result: (any Encodable & Sendable)? = nil
}

/// Writes a command's output: human lines on stdout, progress on stderr (only when it is a terminal),
/// or, under `--json`, exactly one envelope on stdout and nothing else there.
struct Console {
    let json: Bool

    init(json: Bool) { self.json = json }
    init(_ options: OutputOptions) { self.json = options.json }

    /// A line of human-readable output; suppressed under `--json`, where the envelope says it all.
    func line(_ text: String) {
        guard !json else { return }
        print(text)
    }

    /// A line of a long-running command's log (`serve`): on stderr in every mode, so `--json`
    /// keeps stdout to its envelope and a service manager still records it.
    func log(_ text: String) {
        FileHandle.standardError.write(Data("\(TUFTime.format(Date())) \(text)\n".utf8))
    }

    /// Progress for long work, shown only to a person watching a terminal.
    func progress(_ text: String) {
        guard !json, isatty(STDERR_FILENO) != 0 else { return }
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }

    /// Runs a command body and reports its outcome: the result as the success envelope, a failure as
    /// the error envelope (or a message on stderr) plus its documented exit code.
    func perform<Result: Encodable>(_ command: String, _ body: () async throws -> Result) async throws {
        do {
            let result = try await body()
            if json { emit(Envelope(ok: true, command: command, result: result, error: nil)) }
        } catch {
            let failure = CommandFailure(error)
            emitFailure(command: command, failure)
            throw ExitCode(failure.exitStatus.rawValue)
        }
    }

    func emitFailure(command: String, _ failure: CommandFailure) {
        if json {
            let error = Envelope<GateResult>.ErrorBody(
                kind: failure.kind, message: failure.message, hint: failure.hint, detail: failure.detail, exitCode: failure.exitStatus.rawValue)
            emit(Envelope<GateResult>(ok: false, command: command, result: failure.result.map(GateResult.init), error: error))
        } else {
            var text = "error: \(failure.message)\n"
            if let detail = failure.detail { text += detail + "\n" }
            if let hint = failure.hint { text += "hint: \(hint)\n" }
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    private func emit<Result: Encodable>(_ envelope: Envelope<Result>) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // Encoding our own plain structs cannot fail; if it ever does, say so rather than print nothing.
        let data = (try? encoder.encode(envelope)) ?? Data(#"{"ok":false,"error":{"kind":"internal","message":"could not encode the result"}}"#.utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// The one JSON shape every command prints under `--json` (documented in docs/cli.md).
struct Envelope<Result: Encodable>: Encodable {
    struct ErrorBody: Encodable {
        var kind: String
        var message: String
        var hint: String?
        var detail: String?
        var exitCode: Int32
    }
    var ok: Bool
    var command: String
    var result: Result?
    var error: ErrorBody?
}

/// A failure's `result` (see `CommandFailure.result`), encoded exactly as the command's success result.
struct GateResult: Encodable {
    let value: any Encodable

    func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
}
