import Synchronization
@_spi(Fuzzing) import WasmKit

/// Caps linear-memory growth of one store and remembers the high-water mark. Growth past the cap
/// throws instead of making `memory.grow` return -1: a CI run should stop at the first sign of a
/// memory bomb with a clear report, not continue with an allocator that silently fails.
final class MemoryCap: ResourceLimiter {
    struct LimitExceeded: Error, CustomStringConvertible {
        let requestedBytes: Int
        let limitBytes: Int
        var description: String {
            "memory growth to \(requestedBytes / MemoryCap.pageSize) pages exceeds the --max-memory-pages limit of \(limitBytes / MemoryCap.pageSize)"
        }
    }

    static let pageSize = 65536

    let limitBytes: Int
    private let state = Mutex<(highWater: Int, exceeded: Bool)>((0, false))

    init(maxPages: Int) {
        limitBytes = maxPages * Self.pageSize
    }

    var highWaterBytes: Int { state.withLock { $0.highWater } }
    var wasExceeded: Bool { state.withLock { $0.exceeded } }

    /// Raises the mark to a memory size observed directly (the initial allocation of a module).
    func observe(bytes: Int) {
        state.withLock { $0.highWater = max($0.highWater, bytes) }
    }

    func limitMemoryGrowth(to desired: Int) throws -> Bool {
        guard desired <= limitBytes else {
            state.withLock { $0.exceeded = true }
            throw LimitExceeded(requestedBytes: desired, limitBytes: limitBytes)
        }
        observe(bytes: desired)
        return true
    }

    func limitTableGrowth(to desired: Int) throws -> Bool {
        true
    }
}
