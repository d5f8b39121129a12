import Dispatch

/// `map` over independent elements on every core, results in input order.
enum ConcurrentMap {
    static func map<Element: Sendable, Result: Sendable>(_ elements: [Element], _ transform: @Sendable (Element) -> Result) -> [Result] {
        guard elements.count > 1 else { return elements.map(transform) }
        let slots = ResultSlots<Result>(count: elements.count)
        // Chunks of consecutive elements keep per-task overhead small; more chunks than cores
        // balance files of different sizes.
        let chunkCount = min(elements.count, 64)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let start = elements.count * chunk / chunkCount
            let end = elements.count * (chunk + 1) / chunkCount
            for index in start..<end { slots.store(transform(elements[index]), at: index) }
        }
        return slots.collect()
    }
}

/// Work started on another thread at once and collected with `wait()` (once), so that it overlaps
/// whatever the caller does in between.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written by the work before it signals `finished`, read only after waiting for that signal.
    private var value: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.value = work()
            self.finished.signal()
        }
    }

    func wait() -> Value {
        finished.wait()
        return value!
    }
}

/// Slots written once each by concurrent workers and read after all of them finished
/// (`concurrentPerform` returns only then), so no lock is needed.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func store(_ value: Value, at index: Int) { storage[index] = value }

    func collect() -> [Value] { storage.map { $0! } }
}
