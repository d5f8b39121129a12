import Synchronization
import WasmParser
@_spi(Fuzzing) import WasmKit

/// Caps linear-memory and table growth of one store and remembers the memory high-water mark. Growth
/// past a cap throws instead of making `memory.grow` or `table.grow` return -1: a CI run should stop
/// at the first sign of a memory or table bomb with a clear report, not continue with an allocator
/// that silently fails.
final class ResourceCap: ResourceLimiter {
    enum Resource: Sendable {
        case memory, table
    }

    struct LimitExceeded: Error, CustomStringConvertible {
        let description: String
    }

    static let pageSize = 65536

    let limitBytes: Int
    let maxTableElements: Int
    let maxTotalTableElements: Int

    private struct State {
        var highWater = 0
        var exceeded: Resource?
        /// One size per table of the module, as far as the limiter can know it (see `limitTableGrowth`).
        var tableSizes: [Int]
        var tableTotal = 0
    }

    private let state: Mutex<State>

    /// `tableCount`: how many tables the module has (from its scan); each starts at 0 elements and
    /// its creation is its first growth.
    init(limits: RuntimeLimits, tableCount: Int) {
        limitBytes = limits.maxMemoryPages * Self.pageSize
        maxTableElements = limits.maxTableElements
        maxTotalTableElements = limits.maxTotalTableElements
        state = Mutex(State(tableSizes: Array(repeating: 0, count: tableCount)))
    }

    var highWaterBytes: Int { state.withLock { $0.highWater } }
    /// The cap that stopped the guest, if one did.
    var exceeded: Resource? { state.withLock { $0.exceeded } }

    /// Raises the mark to a memory size observed directly (the initial allocation of a module).
    func observe(bytes: Int) {
        state.withLock { $0.highWater = max($0.highWater, bytes) }
    }

    func limitMemoryGrowth(to desired: Int) throws -> Bool {
        guard desired <= limitBytes else {
            state.withLock { $0.exceeded = .memory }
            throw LimitExceeded(
                description: "memory growth to \(desired / Self.pageSize) pages exceeds the --max-memory-pages limit of \(limitBytes / Self.pageSize)")
        }
        observe(bytes: desired)
        return true
    }

    /// WasmKit names the size a table is created with or grows to, but not which table it is. Taking
    /// it to be the smallest tracked one keeps every tracked size (in sorted order) at least the real
    /// one, so the tracked total never falls below the real total: the total cap can be too strict
    /// for a module growing several tables, never too lax.
    func limitTableGrowth(to desired: Int) throws -> Bool {
        try state.withLock { (state: inout State) throws(LimitExceeded) in
            guard desired <= maxTableElements else {
                state.exceeded = .table
                throw LimitExceeded(
                    description: "table growth to \(desired) elements exceeds the --max-table-elements limit of \(maxTableElements)")
            }
            // Only a table the scan did not count (there should be none) finds the list empty.
            if state.tableSizes.isEmpty { state.tableSizes = [0] }
            let smallest = state.tableSizes.indices.min { state.tableSizes[$0] < state.tableSizes[$1] } ?? 0
            let grown = max(state.tableSizes[smallest], desired)
            let total = state.tableTotal - state.tableSizes[smallest] + grown
            guard total <= maxTotalTableElements else {
                state.exceeded = .table
                throw LimitExceeded(
                    description: "table growth to \(desired) elements brings the module's tables to \(total) elements, over the --max-total-table-elements limit of \(maxTotalTableElements)")
            }
            state.tableSizes[smallest] = grown
            state.tableTotal = total
        }
        return true
    }

    /// The declared tables against the caps, before anything is instantiated: a table's initial size
    /// (its `min`) is allocated at instantiation, whatever the module does later.
    static func declaredTablesViolation(_ tables: [TableType], limits: RuntimeLimits, moduleIndex: Int) -> RuntimeError? {
        for (index, table) in tables.enumerated() where table.limits.min > UInt64(limits.maxTableElements) {
            return .initialTableExceedsLimit(moduleIndex: moduleIndex, table: index, elements: table.limits.min,
                                             limit: limits.maxTableElements)
        }
        // Each table is at most UInt32.max here, and a module has fewer tables than bytes: no overflow.
        let total = tables.reduce(UInt64(0)) { $0 + $1.limits.min }
        if total > UInt64(limits.maxTotalTableElements) {
            return .initialTableExceedsLimit(moduleIndex: moduleIndex, table: nil, elements: total, limit: limits.maxTotalTableElements)
        }
        return nil
    }
}
