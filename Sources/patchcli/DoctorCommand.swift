import ArgumentParser
import Foundation
import PatchBuild
import PatchManifest

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that this machine can build patches and that the project is set up to ship them.",
        discussion: """
            Machine: the Swift toolchain (swiftc, the Embedded Swift standard library for
            wasm32-unknown-none-wasm, clang, wasm-ld), binaryen's wasm-opt, the guest templates and the
            system codecs. Project (the current folder when it holds patch.json, or --project): patch.json,
            the signing keys (the key directory of patch.json, mode 0700; each role's key present, mode
            0600, readable; the app's public key file embeds the root key), the PatchSDK
            package, the Patch.configure launch code and the fingerprint file. Each check is ok, warning
            or failure with what to fix. Exit 39 when a check fails; warnings alone exit 0.
            """)

    @Option(name: .long, help: "The project folder (default: the current folder when it holds patch.json).")
    var project: String?

    @Option(name: .long, help: "The Swift toolchain to check, as `build --toolchain` takes it.")
    var toolchain: String?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let console = Console(output)
        try await console.perform("doctor") {
            let environment = ProcessInfo.processInfo.environment
            let here = FileManager.default.fileExists(atPath: ProjectConfig.fileName) ? "." : nil
            let report = Doctor.run(.init(
                project: project ?? here, toolchain: toolchain, environment: environment,
                homeDirectory: FileAccess.homeDirectory,
                installation: .current))
            console.line(report.project.map { "patchcli doctor: this machine and \($0)" } ?? "patchcli doctor: this machine (no patch.json here; --project checks a project)")
            for check in report.checks {
                console.line("\(Self.mark(check.status)) \(check.name): \(check.detail)")
                if let fix = check.fix { console.line("    fix: \(fix)") }
            }
            console.line("\(report.failures) failure(s), \(report.warnings) warning(s)")
            guard report.failures == 0 else {
                let failed = report.checks.filter { $0.status == .failure }.map(\.name)
                throw CommandFailure(kind: "doctor_failed", message: "\(report.failures) check(s) failed: \(failed.joined(separator: ", "))",
                                     exitStatus: .doctorFailed, hint: "each failed check says what to fix", result: report)
            }
            return report
        }
    }

    private static func mark(_ status: DoctorCheck.Status) -> String {
        switch status {
        case .ok: "ok     "
        case .warning: "warning"
        case .failure: "FAILED "
        }
    }
}
