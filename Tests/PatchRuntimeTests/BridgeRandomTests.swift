@testable import PatchRuntime
import Testing

/// The guest's `arc4random_buf` (templates/guest/support.c, behind `Int.random` and Hasher seeds)
/// against the runtime's `patch.secure_random_bytes`: chunks of at most 4096 bytes, the host's
/// stream going on across calls instead of restarting.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's clang (required under CI=true)"))
struct BridgeRandomTests {
    let guest = try! GuestBuilder.cGuest("random_guest.c", linking: [GuestBuilder.templateSupport])

    func options(seed: UInt64?) -> RuntimeOptions {
        var options = testOptions()
        options.bridges.randomSeed = seed
        return options
    }

    @Test func drawsComeFromTheBridgeInChunksOfAtMost4096Bytes() throws {
        let running = try session(guest, options(seed: 11))
        let first = try #require(try running.callPacked("draw", input: Array(repeating: 0, count: 10_000)).output)
        let second = try #require(try running.callPacked("draw", input: Array(repeating: 0, count: 16)).output)
        #expect(running.bridgeState.calls.map(\.description) == [
            "patch.secure_random_bytes(4096)", "patch.secure_random_bytes(4096)", "patch.secure_random_bytes(1808)",
            "patch.secure_random_bytes(16)",
        ])
        // Exactly the seeded stream, in order: the second call goes on where the first stopped.
        let stream = BridgeState(configuration: HostBridgeConfiguration(randomSeed: 11))
        let expected = [4096, 4096, 1808, 16].flatMap { stream.randomBytes(count: $0) }
        #expect(first + second == expected)
    }

    @Test func unseededDrawsDifferBetweenActivations() throws {
        let draws = try (0..<2).map { _ in
            try #require(try session(guest, options(seed: nil)).callPacked("draw", input: Array(repeating: 0, count: 32)).output)
        }
        #expect(draws[0].count == 32)
        #expect(draws[0] != draws[1])
    }
}
