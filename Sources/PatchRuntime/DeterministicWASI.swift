import Synchronization
import WASI

/// The WASI clocks and random source of a `--seed` run: the same seed gives the same readings and
/// bytes on every run and machine, so a smoke test is reproducible.
final class DeterministicClock: WallClock, MonotonicClock {
    /// Each reading advances time by this much, so a guest polling the clock still sees it move.
    static let stepNanoseconds: UInt64 = 1_000

    private let startNanoseconds: UInt64
    private let readings = Mutex<UInt64>(0)

    /// `epochMillis` is the wall-clock reading of the first call (ms since 1970).
    init(epochMillis: Int64) {
        startNanoseconds = UInt64(clamping: epochMillis) &* 1_000_000
    }

    private func advance() -> UInt64 {
        readings.withLock { count in
            count &+= 1
            return count &* Self.stepNanoseconds
        }
    }

    func now() throws -> WallClock.Duration {
        let nanoseconds = startNanoseconds &+ advance()
        return (seconds: nanoseconds / 1_000_000_000, nanoseconds: UInt32(nanoseconds % 1_000_000_000))
    }

    func resolution() throws -> WallClock.Duration {
        (seconds: 0, nanoseconds: UInt32(Self.stepNanoseconds))
    }

    func now() throws -> MonotonicClock.Instant {
        advance()
    }

    func resolution() throws -> MonotonicClock.Duration {
        Self.stepNanoseconds
    }
}

/// SplitMix64: tiny, fast and fully determined by its seed; not for secrets, only for reproducibility.
struct SeededRandomSource: RandomNumberGenerator, RandomBufferGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
