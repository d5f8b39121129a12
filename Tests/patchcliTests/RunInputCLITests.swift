import Foundation
import Testing

/// `run MODULE EXPORT --input TEXT` on an export taking `(ptr, len)` and returning a plain value, the
/// SDK's typed call of a String argument (sdk-contract §2.1), on an Embedded Swift guest compiled here.
@Suite(.enabled(if: RunFixture.canCompile, "needs the Swift toolchain's swiftc, clang and wasm-ld (required under CI=true)"))
struct RunInputCLITests {
    let fixture = try! RunFixture()

    /// The SDK pricing fixture's shape: lineSubtotalCents(json: String) -> Int32, built from
    /// Tests/PatchRuntimeTests/Fixtures/pricing_guest.swift with the bump heap of support.c.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PatchRuntimeTests/Fixtures")

    func pricingGuest() throws -> String {
        let fixtures = Self.fixtures
        let bin = try #require(RunFixture.toolchainBin)
        let directory = try fixture.directory("pricing")
        let object = directory.appendingPathComponent("guest.o").path, support = directory.appendingPathComponent("support.o").path
        let output = directory.appendingPathComponent("pricing.wasm").path
        for (tool, arguments) in [
            ("swiftc", ["-target", "wasm32-unknown-none-wasm", "-enable-experimental-feature", "Embedded", "-wmo", "-parse-as-library",
                        "-Osize", "-Xfrontend", "-disable-stack-protector", "-module-name", "Guest",
                        fixtures.appendingPathComponent("pricing_guest.swift").path, "-c", "-o", object]),
            ("clang", ["--target=wasm32-unknown-unknown", "-O2", "-c", fixtures.appendingPathComponent("support.c").path, "-o", support]),
            ("wasm-ld", ["--no-entry", "--export=lineSubtotalCents", "--export=patch_malloc", "--export=patch_free", "--gc-sections",
                         object, support, "-o", output]),
        ] {
            let result = try RunFixture.run(bin.appendingPathComponent(tool), arguments)
            guard result.status == 0 else { throw RunFixture.Failure(description: "\(tool) failed: \(result.stderr)") }
        }
        return output
    }

    @Test func inputIsWrittenToGuestMemoryAndTheI32ResultPrinted() throws {
        let guest = try pricingGuest()
        let text = try fixture.patchcli(["run", guest, "lineSubtotalCents", "--input", #"{"qty":3,"priceCents":1250}"#])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "3750\n")

        let json = try fixture.patchcli(["run", guest, "lineSubtotalCents", "--input", #"{"qty":2,"priceCents":999}"#, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let body = try #require(try fixture.json(json.stdout)["result"] as? [String: Any])
        #expect(body["abi"] as? String == "buffer")
        #expect(body["signature"] as? String == "(i32, i32) -> i32")
        #expect((body["values"] as? [[String: String]])?.first == ["type": "i32", "value": "1998"])
        #expect(body["output"] == nil)
    }

    @Test func inputFromAFileAndAsASmokeProbe() throws {
        let guest = try pricingGuest()
        let directory = try fixture.directory("pricing-smoke")
        let line = directory.appendingPathComponent("line.json")
        try Data(#"{"qty":4,"priceCents":25}"#.utf8).write(to: line)
        let fromFile = try fixture.patchcli(["run", guest, "lineSubtotalCents", "--input", "@" + line.path])
        #expect(fromFile.stdout == "100\n", "\(fromFile.stderr)")

        // A probe's `input` object travels as compact JSON, through the same buffer ABI.
        let probes = directory.appendingPathComponent("probes.json")
        try Data(#"{"probes":[{"name":"subtotal","export":"lineSubtotalCents","input":{"qty":3,"priceCents":1250},"expected":3750}]}"#.utf8)
            .write(to: probes)
        let smoke = try fixture.patchcli(["run", guest, "--smoke", "--probes", probes.path])
        #expect(smoke.status == 0, "\(smoke.stdout)\(smoke.stderr)")
        #expect(smoke.stdout.contains("PASS  subtotal  returned 3750"))
    }

    /// The input buffer is released after the call (guest.c's patch_free counts), as the SDK's
    /// MarshalContext.release does; empty input is (0, 0) with no allocation, so nothing to free.
    @Test func theInputBufferIsFreedAndEmptyInputAllocatesNothing() throws {
        let counting = try fixture.compile("""
            #include "\(Self.fixtures.appendingPathComponent("bump_malloc.h").path)"
            static unsigned frees;
            __attribute__((export_name("patch_free"))) void patch_free(u32 p) { frees++; bump_free(p); }
            __attribute__((export_name("length_plus_frees"))) int length_plus_frees(u32 ptr, u32 len) { return (int)(len * 100 + frees + (ptr ? 0 : 50)); }
            """, name: "counting", flags: [])
        let first = try fixture.patchcli(["run", counting, "length_plus_frees", "--input", "abc", "--repeat", "2", "--json"])
        let body = try #require(try fixture.json(first.stdout)["result"] as? [String: Any], "\(first.stderr)")
        // The second call sees the first call's input freed.
        #expect((body["values"] as? [[String: String]])?.first?["value"] == "301")
        let empty = try fixture.patchcli(["run", counting, "length_plus_frees", "--input", ""])
        #expect(empty.stdout == "50\n", "\(empty.stderr)")
    }

    /// `--repeat N` on a packed export shows the last call's output, decoded as usual (the calls
    /// before it are not decoded, so the mean time is the call's, not the display's).
    @Test func repeatedPackedCallsShowTheLastCallsOutput() throws {
        let counting = try fixture.compile("""
            #include "\(Self.fixtures.appendingPathComponent("bump_malloc.h").path)"
            static unsigned calls;
            __attribute__((export_name("patch_free"))) void patch_free(u32 p) { bump_free(p); }
            __attribute__((export_name("calls_json"))) u64 calls_json(u32 ptr, u32 len) {
              calls++;
              u32 out = patch_malloc(12);
              char *text = (char *)out;
              text[0] = '{'; text[1] = '"'; text[2] = 'n'; text[3] = '"'; text[4] = ':'; text[5] = (char)('0' + calls); text[6] = '}';
              return ((u64)out << 32) | 7;
            }
            """, name: "calls", flags: [])
        let repeated = try fixture.patchcli(["run", counting, "calls_json", "--input", "x", "--repeat", "3", "--json"])
        let body = try #require(try fixture.json(repeated.stdout)["result"] as? [String: Any], "\(repeated.stdout)\(repeated.stderr)")
        #expect(body["calls"] as? Int == 3)
        let output = try #require(body["output"] as? String, "\(body)")
        #expect(try fixture.json(output)["n"] as? Int == 3, "\(output)")
        #expect(body["output_encoding"] as? String == "json", "\(body)")
    }

    @Test func inputOnAnExportNotTakingABufferNamesTheShapesThatDo() throws {
        let result = try fixture.patchcli(["run", fixture.guest, "half", "--input", "1", "--json"])
        #expect(result.status == 28)
        let error = try #require(try fixture.json(result.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "call_failed")
        #expect((error["message"] as? String)?.contains("(i32, i32) -> i32") == true)
    }
}
