import Foundation

/// Peer-tool helpers (team rule: a test that needs a peer tool FAILS under CI=true when it is
/// missing; elsewhere it skips with a message).
struct PeerToolError: Error, CustomStringConvertible {
    let description: String
}

func requirePythonModule(_ name: String) throws -> String? {
    let python = "/usr/bin/env"
    if let result = try? runPython(python, "import \(name)", stdin: []), result.status == 0 { return python }
    if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" {
        throw PeerToolError(description: "python3 with module '\(name)' is required when CI=true; install it with `pip install \(name)`")
    }
    print("skipping: python3 module '\(name)' is not available (set CI=true to make this a failure)")
    return nil
}

/// Runs `python3 -c script` through `env`, feeding stdin and collecting stdout.
func runPython(_ env: String, _ script: String, stdin: [UInt8]) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: env)
    process.arguments = ["python3", "-c", script]
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data(stdin))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, [UInt8](out), String(decoding: err, as: UTF8.self))
}
