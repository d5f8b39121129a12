import Foundation
import Testing

/// `patchcli doctor` on this machine (whose toolchain the build tests use) and on a package `init`
/// set up, then broken one way at a time.
@Suite struct DoctorCLITests {
    /// A package `init` sets up, wired to the SDK with the launch call, as the app would be.
    private static func initializedPackage(in directory: URL) throws -> (project: URL, key: URL) {
        let project = directory.appendingPathComponent("Tally")
        let sources = project.appendingPathComponent("Sources/Tally")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Tally",
                dependencies: [.package(url: "https://github.com/patch-release/patch-swift", from: "1.4.0")],
                targets: [.executableTarget(name: "Tally", dependencies: [.product(name: "PatchSDK", package: "patch-swift")])]
            )
            """.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
            import PatchSDK

            @main enum Main {
                static func main() {
                    Patch.configure(appKey: "tally", fingerprint: PatchBuildFingerprint.value)
                }
            }
            """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let keys = directory.appendingPathComponent("keys")
        let result = try CLI.run(["init", "--project", project.path, "--key-dir", keys.path])
        guard result.status == 0 else { throw DoctorTestFailure(description: "init failed: \(result.stderr)") }
        return (project, keys.appendingPathComponent("targets.key"))
    }

    private static func checks(_ result: CLIResult) -> [String: String] {
        let checks = (result.result?["checks"] as? [[String: Any]]) ?? []
        return Dictionary(checks.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aSetUpProjectPassesEveryCheck() throws {
        try withScratchDirectory { directory in
            let (project, _) = try Self.initializedPackage(in: directory)
            let result = try CLI.run(["doctor", "--json"], in: project)
            #expect(result.status == 0, "\(result.stdout)")
            let checks = Self.checks(result)
            for name in ["toolchain", "templates", "codec_brotli", "codec_zstd", "codec_xz", "codec_bzip2", "patch_json", "key_directory",
                         "signing_key_root", "signing_key_targets", "signing_key_snapshot", "signing_key_timestamp",
                         "public_key", "sdk_package", "launch_code", "fingerprint"] {
                #expect(checks[name] == "ok", "\(name): \(result.stdout)")
            }
        }
    }

    @Test func eachProjectProblemFailsItsCheckWith39AndSaysWhatToFix() throws {
        try withScratchDirectory { directory in
            let (project, key) = try Self.initializedPackage(in: directory)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
            let manifest = project.appendingPathComponent("Package.swift")
            let text = try String(contentsOf: manifest, encoding: .utf8)
            try text.replacingOccurrences(of: "PatchSDK", with: "Other").write(to: manifest, atomically: true, encoding: .utf8)
            try "import Foundation\n".write(to: project.appendingPathComponent("Sources/Tally/main.swift"), atomically: true, encoding: .utf8)
            let publicKey = project.appendingPathComponent("Sources/Tally/Patch/PatchPublicKey.generated.swift")
            try String(contentsOf: publicKey, encoding: .utf8).replacingOccurrences(of: "publicKeyBase64 = \"", with: "publicKeyBase64 = \"AAAA")
                .write(to: publicKey, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(at: project.appendingPathComponent(".patch/baseline.json"))

            let result = try CLI.run(["doctor", "--project", project.path, "--json"])
            #expect(result.status == 39, "\(result.stdout)")
            #expect(result.error?["kind"] as? String == "doctor_failed")
            let checks = Self.checks(result)
            for name in ["signing_key_targets", "public_key", "sdk_package", "launch_code", "fingerprint"] {
                #expect(checks[name] == "failure", "\(name): \(result.stdout)")
            }
            #expect(checks["toolchain"] == "ok")
            let human = try CLI.run(["doctor", "--project", project.path])
            #expect(human.status == 39)
            #expect(human.stdout.contains("fix: chmod 600 \(key.path)"), "\(human.stdout)")
        }
    }

    @Test func aBrokenPatchJSONAndAMissingToolchainAreFailures() throws {
        try withScratchDirectory { directory in
            try "{\"version\": 1".write(to: directory.appendingPathComponent("patch.json"), atomically: true, encoding: .utf8)
            let result = try CLI.run(["doctor", "--toolchain", directory.appendingPathComponent("nowhere").path, "--json"], in: directory)
            #expect(result.status == 39, "\(result.stdout)")
            let checks = Self.checks(result)
            #expect(checks["patch_json"] == "failure")
            #expect(checks["toolchain"] == "failure")
            #expect(checks["codec_brotli"] == "ok")
            #expect(checks["key_directory"] == nil, "no project checks past an unreadable patch.json")
        }
    }
}

struct DoctorTestFailure: Error, CustomStringConvertible {
    var description: String
}
