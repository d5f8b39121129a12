import Foundation
import Testing

/// Progress of long commands: steps on stderr as plain lines when stderr is not a terminal (as here,
/// and in CI), never on stdout, silenced by --quiet; stdout flushed before stderr so a log of both
/// reads in order.
@Suite(.serialized) struct ProgressCLITests {
    @Test func releaseAndDiffStepsArePlainStderrLinesAndStdoutKeepsToTheEnvelope() throws {
        try withScratchDirectory { directory in
            try ReleaseCommandTests.prepare(directory)
            let release = try ReleaseCommandTests.publish("a.wasm", in: directory)
            #expect(release.status == 0, "\(release.stdout)")
            #expect(release.envelope != nil, "stdout holds only the envelope: \(release.stdout)")
            #expect(release.stderr == "verifying the module as a device would…\ncompressing, diffing against the channel's releases, signing…\n")

            let quiet = try ReleaseCommandTests.publish("b.wasm", in: directory, extra: ["--quiet"])
            #expect(quiet.status == 0, "\(quiet.stdout)")
            #expect(quiet.stderr.isEmpty, "--quiet: \(quiet.stderr)")

            let diff = try CLI.run(["diff", "a.wasm", "b.wasm", "-o", "ab.patch", "--json"], in: directory)
            #expect(diff.envelope != nil, "\(diff.stdout)")
            #expect(diff.stderr.hasPrefix("diffing "), "\(diff.stderr)")
            #expect(!diff.stdout.contains("diffing"))
        }
    }

    @Test(.enabled(if: RunFixture.canCompile, "builds a patch: needs the Swift toolchain (required under CI=true)"))
    func buildSaysWhatItIsDoing() throws {
        try withScratchDirectory { directory in
            let project = try BuildCLITests.initializedExample(in: directory)
            try BuildCLITests.edit(project, BuildCLITests.shippingFile,
                                   replacing: "case .domestic: return subtotal.cents >= 5_000", with: "case .domestic: return subtotal.cents >= 3_000")
            let build = try CLI.run(["build", "--project", project.path, "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            #expect(build.envelope != nil, "\(build.stdout)")
            #expect(build.stderr == "comparing \(project.path) with its baseline…\ncompiling the guest module…\n")
        }
    }

    /// A failing smoke probe prints its FAIL line on stdout, then the error on stderr: through one
    /// pipe (2>&1, as CI captures), the FAIL line must come first although stdout is block-buffered.
    @Test(.enabled(if: RunFixture.canCompile, "needs the Swift toolchain's clang (required under CI=true)"))
    func stdoutIsFlushedBeforeStderrSoOneLogReadsInOrder() throws {
        let fixture = try RunFixture()
        let directory = try fixture.directory("order")
        let probes = directory.appendingPathComponent("probes.json")
        try Data(#"{"probes":[{"name":"adds","export":"add","args":[2,3],"expected":6}]}"#.utf8).write(to: probes)
        let script = "'\(CLI.binary.path)' run '\(fixture.guest)' --smoke --probes '\(probes.path)' 2>&1"
        let combined = try CLI.run(["-c", script], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(combined.status == 27, "\(combined.stdout)")
        let fail = try #require(combined.stdout.range(of: "FAIL  adds"), "\(combined.stdout)")
        let error = try #require(combined.stdout.range(of: "error: "), "\(combined.stdout)")
        #expect(fail.lowerBound < error.lowerBound, "\(combined.stdout)")
    }
}
