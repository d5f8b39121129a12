import Dispatch
import Synchronization

/// Runs a stream decoder on a second thread, a bounded distance ahead of its reader: the BSDIFF40
/// applier's diff block (most of applying is bzip2 decoding it) then decodes while the caller adds
/// old bytes, hashes and writes. The reader sees exactly what the wrapped decoder produces, in the
/// same order, with its errors where they occur in the output, so refusals are unchanged.
///
/// Memory: at most `chunkLimit` chunks of `chunkSize` bytes decoded ahead, however large the stream
/// claims to be (a bomb stops there until the reader asks for more, which it never does past the
/// sizes the control entries allow).
struct ReadAheadDecoder<Base: StreamDecoder & ~Copyable & SendableMetatype>: ~Copyable, StreamDecoder {
    static var codec: CodecKind { Base.codec }
    static var chunkSize: Int { 64 * 1024 }
    static var chunkLimit: Int { 4 }

    private let pipeline: Pipeline
    /// The chunk being read from and how far.
    private var chunk: [UInt8] = []
    private var chunkOffset = 0
    /// Set when the stream has ended: the input it left unread.
    private var trailing: Int?
    /// The decoder's error, thrown again by every later read (the producer has stopped).
    private var failure: CodecError?

    /// Starts decoding `base` at once. The input `base` reads must outlive this decoder, which waits
    /// for its thread to stop before it is destroyed.
    init(_ base: consuming Base) {
        pipeline = Pipeline(base: base)
        let pipeline = pipeline
        // A queue of its own, not the global one: the reader blocks while it waits, and when it runs
        // on a pool thread (Swift concurrency uses the global queue's threads) the producer must
        // not need a thread from that same, CPU-wide pool. Private serial queues overcommit.
        DispatchQueue(label: "PatchDiff.ReadAheadDecoder").async { pipeline.produce() }
    }

    deinit { pipeline.stop() }

    var trailingInputCount: Int { trailing ?? 0 }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
        if let failure { throw failure }
        guard buffer.count > 0, trailing == nil else { return 0 }
        while chunkOffset == chunk.count {
            switch pipeline.next() {
            case let .data(bytes):
                chunk = bytes
                chunkOffset = 0
            case let .end(trailingInputCount):
                trailing = trailingInputCount
                return 0
            case let .failure(error):
                failure = error
                throw error
            }
        }
        let count = min(buffer.count, chunk.count - chunkOffset)
        chunk.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + chunkOffset, byteCount: count)
        }
        chunkOffset += count
        return count
    }

    enum Item: Sendable {
        case data([UInt8])
        case end(trailingInputCount: Int)
        case failure(CodecError)
    }

    /// The decoder, the queue between the two threads and the producer's loop.
    final class Pipeline: @unchecked Sendable {
        // Only the producer thread touches `base` once `produce` runs.
        private var base: Base
        private let queue = Mutex<[Item]>([])
        /// Signalled per queued item; waited on by the reader.
        private let itemsReady = DispatchSemaphore(value: 0)
        /// Free chunk slots; the producer takes one per data chunk, the reader returns it. Created at 0
        /// and signalled up: libdispatch refuses to free a semaphore below its initial value, which
        /// this one is whenever the reader stops before the end.
        private let freeSlots = DispatchSemaphore(value: 0)
        private let stopped = DispatchSemaphore(value: 0)
        private let cancelled = Atomic<Bool>(false)

        init(base: consuming Base) {
            self.base = base
            for _ in 0..<ReadAheadDecoder.chunkLimit { freeSlots.signal() }
        }

        func produce() {
            defer { stopped.signal() }
            while true {
                freeSlots.wait()
                if cancelled.load(ordering: .acquiring) { return }
                var bytes = [UInt8](repeating: 0, count: ReadAheadDecoder.chunkSize)
                var filled = 0
                var outcome: Item?
                // Single reads, so data before an error reaches the reader before the error does.
                bytes.withUnsafeMutableBytes { buffer in
                    while filled < buffer.count {
                        do throws(CodecError) {
                            let count = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                            if count == 0 {
                                outcome = .end(trailingInputCount: base.trailingInputCount)
                                break
                            }
                            filled += count
                        } catch {
                            outcome = .failure(error)
                            break
                        }
                    }
                }
                if filled > 0 {
                    bytes.removeSubrange(filled...)
                    push(.data(bytes))
                } else {
                    freeSlots.signal()
                }
                if let outcome {
                    push(outcome)
                    return
                }
            }
        }

        private func push(_ item: Item) {
            queue.withLock { $0.append(item) }
            itemsReady.signal()
        }

        /// The next item, waiting for the producer if needed. A data chunk frees its slot as it is
        /// taken (the reader holds one chunk while the producer fills up to `chunkLimit`).
        func next() -> Item {
            itemsReady.wait()
            let item = queue.withLock { $0.removeFirst() }
            if case .data = item { freeSlots.signal() }
            return item
        }

        /// Stops the producer and waits until it has left `produce` (it may be blocked on a slot).
        func stop() {
            cancelled.store(true, ordering: .releasing)
            freeSlots.signal()
            stopped.wait()
        }
    }
}
