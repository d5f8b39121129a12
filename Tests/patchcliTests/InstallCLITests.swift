import Foundation
import Testing

/// `make install` into a temporary prefix, then the installed copy, found through PATH and run from a
/// folder outside the checkout with no PATCHCLI_TEMPLATES, sets a package up and builds a patch:
/// everything it needs at run time must have been installed beside it.
@Suite(.serialized) struct InstallCLITests {
    private static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// A one-target package with one `// @patchable` function.
    private static let packageManifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Tally",
            targets: [.target(name: "TallyCore")]
        )
        """
    private static let tallySource = """
        public enum Tally {
            // @patchable
            public static func bonus(points: Int) -> Int {
                points >= 100 ? 10 : 0
            }
        }
        """

    /// The debug build the tests run, installed with `make install CONFIGURATION=debug` (the build
    /// products directory is `<scratch>/<triple>/debug`, linked as `<scratch>/debug`); `target`
    /// `uninstall` removes it, `variables` are more `NAME=value` for make.
    static func install(into prefix: URL, target: String = "install", variables: [String] = []) throws -> CLIResult {
        let scratch = CLI.binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try CLI.run(
            ["make", "-s", "-C", checkout.path, target, "CONFIGURATION=debug", "SCRATCH=\(scratch.path)", "PREFIX=\(prefix.path)"] + variables,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    /// The environment of a user who installed patchcli: PATH leads to the prefix, no template override.
    private static func userEnvironment(prefix: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATCHCLI_TEMPLATES"] = nil
        environment["PATH"] = prefix.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    private static func installed(_ arguments: [String], prefix: URL, in directory: URL) throws -> CLIResult {
        try CLI.run(["patchcli"] + arguments, in: directory, replacingEnvironment: userEnvironment(prefix: prefix),
                    executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    @Test func theInstalledCopyInitsPreparesAndBuildsFromPathWithoutTheCheckout() throws {
        try withScratchDirectory { directory in
            let prefix = directory.appendingPathComponent("prefix")
            let installing = try Self.install(into: prefix)
            try #require(installing.status == 0, "\(installing.stdout)\(installing.stderr)")
            let binary = prefix.appendingPathComponent("bin/patchcli")
            let attributes = try FileManager.default.attributesOfItem(atPath: binary.path)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the installed binary is a copy, not a link into the build tree")
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/patchcli/templates/guest/Prelude.swift").path))

            let project = directory.appendingPathComponent("Tally")
            try FileManager.default.createDirectory(at: project.appendingPathComponent("Sources/TallyCore"), withIntermediateDirectories: true)
            try Self.packageManifest.write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let source = project.appendingPathComponent("Sources/TallyCore/Tally.swift")
            try Self.tallySource.write(to: source, atomically: true, encoding: .utf8)

            let version = try Self.installed(["--version"], prefix: prefix, in: directory)
            #expect(version.status == 0)
            #expect(version.stdout.hasPrefix("patchcli "), "\(version.stdout)")

            let initResult = try Self.installed(["init", "--key-dir", directory.appendingPathComponent("keys").path], prefix: prefix, in: project)
            try #require(initResult.status == 0, "\(initResult.stdout)\(initResult.stderr)")
            let prepare = try Self.installed(["prepare", "--check"], prefix: prefix, in: project)
            #expect(prepare.status == 0, "\(prepare.stdout)\(prepare.stderr)")

            let text = try String(contentsOf: source, encoding: .utf8)
            try text.replacingOccurrences(of: "points >= 100 ? 10 : 0", with: "points >= 50 ? 15 : 0")
                .write(to: source, atomically: true, encoding: .utf8)
            let build = try Self.installed(["build", "--json"], prefix: prefix, in: project)
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            #expect(build.result?["patched"] as? Int == 1, "\(build.stdout)")
            let module = project.appendingPathComponent(".patch/build/module.wasm")
            #expect(FileManager.default.fileExists(atPath: module.path))

            let uninstall = try CLI.run(["make", "-s", "-C", Self.checkout.path, "uninstall", "PREFIX=\(prefix.path)"],
                                        executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            #expect(!FileManager.default.fileExists(atPath: binary.path))
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/patchcli").path))
        }
    }

    @Test func aCopiedBinaryWithoutItsShareFolderNamesTheMissingTemplates() throws {
        try withScratchDirectory { directory in
            let prefix = directory.appendingPathComponent("prefix")
            let installing = try Self.install(into: prefix)
            try #require(installing.status == 0, "\(installing.stdout)\(installing.stderr)")
            try FileManager.default.removeItem(at: prefix.appendingPathComponent("share"))
            let version = try Self.installed(["--version"], prefix: prefix, in: directory)
            #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("(unknown)"), "\(version.stdout)")
            let build = try Self.installed(["build", "--sources", directory.path, "--export", "Tally.bonus(points:)", "-o", directory.appendingPathComponent("out").path, "--json"],
                                           prefix: prefix, in: directory)
            #expect(build.error?["kind"] as? String == "toolchain_missing", "\(build.stdout)")
            #expect((build.error?["message"] as? String)?.contains("share/patchcli/templates") == true, "\(build.stdout)")
        }
    }
}
