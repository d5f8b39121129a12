import Foundation

/// Runs one toolchain command to completion and captures what it printed.
struct ProcessRunner {
    struct Result: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `executable` with `arguments` in `directory`. Both pipes are drained on background
    /// threads while the process runs, so a chatty compiler cannot fill a pipe and deadlock.
    static func run(_ executable: String, _ arguments: [String], in directory: String?, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = DrainedPipe(output.fileHandleForReading)
        let errorData = DrainedPipe(error.fileHandleForReading)
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData.wait(), as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe to its end on a separate thread.
private final class DrainedPipe: @unchecked Sendable {
    // Written once by the reading thread before `done` is signalled, read only after waiting on it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
