import PatchDiff
import PatchManifest
@testable import PatchRuntime
import Testing

@Suite struct ArtifactLoaderTests {
    let primary = try! GuestBuilder.wat(named: "member_primary.wat")
    let additional = try! GuestBuilder.wat(named: "member_additional.wat")

    @Test func plainModuleIsOneMember() throws {
        let artifact = try ArtifactLoader.load(primary, expectedSHA256: nil)
        #expect(artifact.layers == ["wasm"])
        #expect(artifact.modules == [primary])
        #expect(artifact.sha256 == SHA256Hasher.hex(of: primary))
    }

    @Test func overlayAroundContainerIsPeeledInOrder() throws {
        let container = try ModuleContainer(modules: [primary, additional]).encode()
        let envelope = try OverlayEnvelope(overlay: Array("PROV-chunk".utf8), inner: container).encode()
        let artifact = try ArtifactLoader.load(envelope, expectedSHA256: SHA256Hasher.hex(of: envelope).uppercased())
        #expect(artifact.layers == ["POVR", "PMOD", "wasm"])
        #expect(artifact.modules == [primary, additional])
        #expect(artifact.overlay == Array("PROV-chunk".utf8))
    }

    @Test func hashIsCheckedBeforeParsing() {
        let garbage: [UInt8] = [1, 2, 3, 4]
        let error = runtimeError { _ = try ArtifactLoader.load(garbage, expectedSHA256: String(repeating: "0", count: 64)) }
        guard case .integrityMismatch(_, let actual, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(actual == SHA256Hasher.hex(of: garbage))
        #expect(error?.category == .integrity)
    }

    @Test func malformedDigestIsRejected() {
        guard case .invalidSHA256? = runtimeError({ _ = try ArtifactLoader.load(primary, expectedSHA256: "abc") }) else {
            Issue.record("expected invalidSHA256"); return
        }
    }

    @Test func truncatedContainerNamesTheField() {
        var container = try! ModuleContainer(modules: [primary]).encode()
        container.removeLast(3)
        guard case .malformedContainer(let detail)? = runtimeError({ _ = try ArtifactLoader.load(container, expectedSHA256: nil) }) else {
            Issue.record("expected malformedContainer"); return
        }
        #expect("\(detail)".contains("module[0].bytes"))
    }

    @Test func containerRoundTripsAndRejectsBadVersionAndEmptyCount() throws {
        let encoded = try ModuleContainer(modules: [primary, additional]).encode()
        #expect(try ModuleContainer.decode(encoded).modules == [primary, additional])
        var badVersion = encoded
        badVersion[4] = 2
        #expect(throws: ContainerFormatError.unsupportedVersion(format: "PMOD", found: 2, supported: 1)) { try ModuleContainer.decode(badVersion) }
        #expect(throws: ContainerFormatError.self) { try ModuleContainer(modules: []).encode() }
        #expect(throws: ContainerFormatError.self) { try ModuleContainer.decode(Array("PMOD".utf8) + [1, 0, 0, 0]) }
    }

    /// Devices download `.br`: the loader takes brotli (no magic number) and zstd downloads by
    /// content, whatever the file is called, and hashes what they decompress to.
    @Test(arguments: [CodecKind.brotli, .zstd])
    func compressedDownloadsAreDetectedByContentAndHashedDecompressed(codec: CodecKind) throws {
        let container = try ModuleContainer(modules: [primary, additional]).encode()
        let download = try codec.compress(container)
        let artifact = try ArtifactLoader.load(download, expectedSHA256: SHA256Hasher.hex(of: container))
        #expect(artifact.layers == [codec.rawValue, "PMOD", "wasm"])
        #expect(artifact.modules == [primary, additional])
        guard case .integrityMismatch? = runtimeError({ _ = try ArtifactLoader.load(download, expectedSHA256: SHA256Hasher.hex(of: download)) }) else {
            Issue.record("the digest of the compressed bytes must not match"); return
        }
    }

    @Test func brokenCompressedDownloadsAreNamed() throws {
        var zstd = try CodecKind.zstd.compress(primary)
        zstd.removeLast(6)
        guard case .compressedArtifact(let codec, _)? = runtimeError({ _ = try ArtifactLoader.load(zstd, expectedSHA256: nil) }) else {
            Issue.record("expected compressedArtifact for a truncated zstd stream"); return
        }
        #expect(codec == "zstd")
        // Brotli of something that is no module is not taken as an artifact.
        let notModule = try CodecKind.brotli.compress(Array("just text, no module magic".utf8))
        guard case .unrecognizedArtifact? = runtimeError({ _ = try ArtifactLoader.load(notModule, expectedSHA256: nil) }) else {
            Issue.record("expected unrecognizedArtifact"); return
        }
        // A brotli bomb stops at the cap with its own error instead of filling memory.
        let bomb = try CodecKind.brotli.compress(primary + [UInt8](repeating: 0, count: 4 << 20), level: 1)
        #expect(bomb.count < 64 << 10)
        guard case .compressedArtifact(let bombCodec, let detail)? = runtimeError({ _ = try ArtifactLoader.load(bomb, expectedSHA256: nil, maxDecompressedBytes: 1 << 20) }) else {
            Issue.record("expected compressedArtifact for a bomb"); return
        }
        #expect(bombCodec == "brotli" && detail.contains("limit"))
    }

    @Test func unknownMagicIsNamed() {
        guard case .unrecognizedArtifact(let first)? = runtimeError({ _ = try ArtifactLoader.load(Array("hello".utf8), expectedSHA256: nil) }) else {
            Issue.record("expected unrecognizedArtifact"); return
        }
        #expect(first == "68 65 6c 6c 6f")
    }
}
