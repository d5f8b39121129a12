import Foundation

/// Runs the built `patchcli` binary as a user or a CI script would, capturing everything it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The `--json` envelope, parsed; nil when stdout is not one JSON object.
    var envelope: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }

    var result: [String: Any]? { envelope?["result"] as? [String: Any] }
    var error: [String: Any]? { envelope?["error"] as? [String: Any] }
    /// The error's one-line `message` and its `detail` (a list behind a count, a backtrace), as the
    /// human output prints them.
    var errorText: String { [error?["message"], error?["detail"]].compactMap { $0 as? String }.joined(separator: "\n") }
}

enum CLI {
    /// The binary sits next to the test bundle in the build products directory (any scratch path).
    static let binary: URL = {
        if let override = ProcessInfo.processInfo.environment["PATCHCLI_BIN"] {
            return URL(fileURLWithPath: override)
        }
        let candidates = Bundle.allBundles.map { $0.bundleURL } + [URL(fileURLWithPath: CommandLine.arguments[0])]
        for candidate in candidates where candidate.pathExtension == "xctest" {
            var directory = candidate.deletingLastPathComponent()
            // macOS nests the bundle's binary inside Contents/MacOS; the products directory is its parent.
            while directory.path != "/" {
                let binary = directory.appendingPathComponent("patchcli")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                directory = directory.deletingLastPathComponent()
            }
        }
        return URL(fileURLWithPath: "patchcli")
    }()

    /// Runs `executable` (the built patchcli unless given) with `environment` added to this process's,
    /// or with exactly `replacingEnvironment` when that is given.
    @discardableResult
    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], replacingEnvironment: [String: String]? = nil,
        stdin: [UInt8]? = nil, executable: URL = binary
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = environment
        // Store-writing commands keep trusted-versions records: in the test's folder, not the user's state folder.
        if let directory, environment["PATCHCLI_STATE_DIR"] == nil { environment["PATCHCLI_STATE_DIR"] = directory.appendingPathComponent("state").path }
        if let replacingEnvironment {
            process.environment = replacingEnvironment
        } else if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let input = stdin.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        if let stdin, let input {
            // Small inputs (a key): fits in the pipe buffer, so writing before reading cannot block.
            try input.fileHandleForWriting.write(contentsOf: Data(stdin))
            try input.fileHandleForWriting.close()
        }
        // Read both pipes before waiting so a large output cannot deadlock the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}

/// A fresh directory per test, removed afterwards.
func withScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchcli-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
