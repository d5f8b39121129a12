import Foundation
import Synchronization

/// What a run is doing right now, so a timeout can say where it struck.
public final class ProgressMarker: Sendable {
    private enum Phase {
        case text(String)
        case call(export: String, moduleIndex: Int)
    }

    private let phase = Mutex(Phase.text("starting"))

    public init() {}

    public func set(_ text: String) { phase.withLock { $0 = .text(text) } }

    /// Marks a guest call. Set on every call, so the message is only built if a timeout asks for it.
    func setCalling(_ export: String, moduleIndex: Int) {
        phase.withLock { $0 = .call(export: export, moduleIndex: moduleIndex) }
    }

    public var current: String {
        switch phase.withLock({ $0 }) {
        case .text(let text): return text
        case .call(let export, let moduleIndex): return "calling \(export) in module \(moduleIndex)"
        }
    }
}

/// Runs guest work on a thread of its own under a wall-clock deadline.
///
/// WasmKit 0.4.2 has no way to interrupt a running guest from outside (fuel is the only in-engine
/// stop), so on timeout the worker is abandoned, not stopped: it keeps running until its fuel runs
/// out or the process exits. `patchcli run` exits right after reporting, which ends it.
public enum Watchdog {
    /// The worker's native stack: generous, because host code called from deep guest recursion
    /// runs on it too.
    static let workerStackBytes = 64 << 20

    public static func run<Value: Sendable>(
        timeoutSeconds: Double, progress: ProgressMarker,
        _ body: @escaping @Sendable () throws(RuntimeError) -> Value
    ) throws(RuntimeError) -> Value {
        let outcome = Mutex<Result<Value, RuntimeError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let worker = Thread {
            let result: Result<Value, RuntimeError>
            do throws(RuntimeError) { result = .success(try body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        worker.stackSize = workerStackBytes
        worker.name = "patchcli-run-guest"
        worker.start()
        guard finished.wait(timeout: .now() + timeoutSeconds) == .success,
              let result = outcome.withLock({ $0 })
        else {
            throw .timedOut(seconds: timeoutSeconds, phase: progress.current)
        }
        return try result.get()
    }
}
