import Foundation

/// Team rule: a test that needs a peer tool FAILS under CI=true when it is missing; elsewhere it
/// skips with a message.
struct PeerToolError: Error, CustomStringConvertible {
    let description: String
}

/// Returns the `env` launcher when `python3` can import `name`; nil (skip) or a throw (CI) otherwise.
func requirePythonModule(_ name: String) throws -> String? {
    let env = "/usr/bin/env"
    if let result = try? runPython(env, arguments: ["-c", "import \(name)"]), result.status == 0 { return env }
    if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" {
        throw PeerToolError(description: "python3 with module '\(name)' is required when CI=true; install it with `pip install \(name)`")
    }
    print("skipping: python3 module '\(name)' is not available (set CI=true to make this a failure)")
    return nil
}

func runPython(_ env: String, script: String, arguments: [String]) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
    try runPython(env, arguments: [script] + arguments)
}

func runPython(_ env: String, arguments: [String]) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: env)
    process.arguments = ["python3"] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Small outputs (one JSON line): reading stdout then stderr cannot fill a pipe and deadlock.
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, [UInt8](out), String(decoding: err, as: UTF8.self))
}
