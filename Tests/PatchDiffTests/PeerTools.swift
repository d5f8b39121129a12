import Foundation

/// Helpers shared by PatchDiff tests that check our output against independent implementations
/// (Colin Percival's `bsdiff`/`bspatch`, Python `bsdiff4`, …).
///
/// Team rule: a test that needs a peer tool FAILS when `CI=true` and the tool is missing (CI must
/// prove interoperability); on a developer machine it may skip with a message instead.

/// Why a peer tool could not be used.
struct PeerToolError: Error, CustomStringConvertible {
    let description: String
}

/// True when running in CI, where missing peer tools are a failure rather than a skip.
var isContinuousIntegration: Bool {
    ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
}

/// Finds an executable named `name` on `PATH` (or accepts an absolute path).
/// - Returns: the executable's path, or nil when it is missing and we are not in CI (the caller skips).
/// - Throws: `PeerToolError` when it is missing and `CI=true`.
func requireTool(_ name: String) throws -> String? {
    if let path = findExecutable(name) { return path }
    if isContinuousIntegration {
        throw PeerToolError(description: "peer tool '\(name)' is required when CI=true but was not found on PATH; install it (e.g. apt-get install bsdiff, pip install bsdiff4)")
    }
    print("skipping: peer tool '\(name)' not found on PATH (set CI=true to make this a failure)")
    return nil
}

private func findExecutable(_ name: String) -> String? {
    let fileManager = FileManager.default
    if name.contains("/") {
        return fileManager.isExecutableFile(atPath: name) ? name : nil
    }
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in searchPath.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if fileManager.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs `path` with `args`, optionally feeding `stdin`, and collects its exit status and output.
/// stdout and stderr are drained concurrently so a chatty tool cannot deadlock on a full pipe.
func runTool(_ path: String, _ args: [String], stdin: [UInt8]? = nil) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = args
    let stdoutPipe = Pipe()
    let stderrPipe = Pipe()
    process.standardOutput = stdoutPipe
    process.standardError = stderrPipe
    let stdinPipe: Pipe? = stdin == nil ? nil : Pipe()
    process.standardInput = stdinPipe ?? FileHandle.nullDevice

    try process.run()

    let collected = CollectedOutput()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
        collected.setStdout(stdoutPipe.fileHandleForReading.readDataToEndOfFile())
    }
    DispatchQueue.global().async(group: group) {
        collected.setStderr(stderrPipe.fileHandleForReading.readDataToEndOfFile())
    }
    if let stdin, let stdinPipe {
        let writer = stdinPipe.fileHandleForWriting
        // A tool that exits without reading all of stdin closes the pipe; that is its business
        // (its status says what happened), so a failed write is not an error here.
        try? writer.write(contentsOf: Data(stdin))
        try? writer.close()
    }
    group.wait()
    process.waitUntilExit()
    let (stdout, stderr) = collected.values
    return (process.terminationStatus, [UInt8](stdout), String(decoding: stderr, as: UTF8.self))
}

/// Output gathered by the two pipe readers of `runTool`.
private final class CollectedOutput: @unchecked Sendable {
    // Guarded by `lock`: written once by each reader thread, read after both finished.
    private let lock = NSLock()
    private var stdout = Data()
    private var stderr = Data()

    func setStdout(_ data: Data) { lock.withLock { stdout = data } }
    func setStderr(_ data: Data) { lock.withLock { stderr = data } }
    var values: (Data, Data) { lock.withLock { (stdout, stderr) } }
}

/// True when `python3` exists and can import module `name` (e.g. "bsdiff4").
func pythonHasModule(_ name: String) -> Bool {
    guard let python = findExecutable("python3"),
          let result = try? runTool(python, ["-c", "import \(name)"]) else { return false }
    return result.status == 0
}

/// Like `requireTool`, for a Python module: returns the python3 path, nil to skip, throws in CI.
func requirePythonModule(_ name: String) throws -> String? {
    if let python = findExecutable("python3"), pythonHasModule(name) { return python }
    if isContinuousIntegration {
        throw PeerToolError(description: "python3 with module '\(name)' is required when CI=true; install it with `pip install \(name)`")
    }
    print("skipping: python3 module '\(name)' is not available (set CI=true to make this a failure)")
    return nil
}

/// Creates a fresh temporary directory, passes it to `body`, and removes it afterwards.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) rethrows -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("patchdiff-tests-\(UUID().uuidString)", isDirectory: true)
    // Creating a directory under the system temp dir only fails if the machine is broken; the
    // body's own file operations would then report the problem with a clearer message.
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
