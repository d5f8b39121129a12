import Foundation

// The python3 peers (python-tuf, securesystemslib, the pbxproj readers) for every test target that
// checks our output against them; PatchDiffTests/PeerTools.swift has the general tool runner.

/// Team rule: a test that needs a peer tool FAILS under CI=true when it is missing; elsewhere it
/// skips with a message.
package struct PeerToolError: Error, CustomStringConvertible {
    package let description: String
}

/// Returns the `env` launcher when `python3` can import `name`; nil (skip) or a throw (CI) otherwise.
package func requirePythonModule(_ name: String) throws -> String? {
    let env = "/usr/bin/env"
    if let result = try? runPython(env, arguments: ["-c", "import \(name)"]), result.status == 0 { return env }
    if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" {
        throw PeerToolError(description: "python3 with module '\(name)' is required when CI=true; install it with `pip install \(name)`")
    }
    print("skipping: python3 module '\(name)' is not available (set CI=true to make this a failure)")
    return nil
}

/// Runs `python3 ARGUMENTS` through `env`, feeding `stdin`, collecting stdout and stderr.
package func runPython(_ env: String, arguments: [String], stdin: [UInt8] = []) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: env)
    process.arguments = ["python3"] + arguments
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Inputs and outputs here are small (a JSON document): they fit the pipe buffers, so writing
    // all of stdin, then reading stdout and stderr in turn, cannot deadlock.
    try input.fileHandleForWriting.write(contentsOf: Data(stdin))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, [UInt8](out), String(decoding: err, as: UTF8.self))
}
