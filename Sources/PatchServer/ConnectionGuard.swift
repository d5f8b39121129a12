import NIOCore
import Synchronization

/// The open connections of one server, so a new one past `limit` can take the place of the one
/// that has been idle longest, or be refused when every one is busy.
///
/// Idle connections (nothing sent yet, or between requests) cost the client nothing to keep open,
/// so refusing newcomers once they fill the table would let a few thousand silent sockets lock
/// every device out until the idle timeout; evicting the longest idle one keeps checks answered
/// and closes only connections no request is waiting on. Busy connections are never evicted;
/// those that stay busy without finishing a request, or without taking their answer, are the
/// request and write timeouts' to close.
final class ConnectionRegistry: Sendable {
    let limit: Int
    private let state = Mutex<State>(State())

    init(limit: Int) { self.limit = limit }

    /// Registers a new connection (idle: it has sent nothing yet). Past the limit, closes the
    /// longest-idle other connection to make room, or returns false when all of them are busy.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted): (Bool, (any Channel)?) = state.withLock { state in
            var evicted: (any Channel)?
            if state.connections.count >= limit {
                guard let oldest = state.longestIdle, let entry = state.connections[oldest] else { return (false, nil) }
                state.unlinkIdle(oldest)
                state.connections[oldest] = nil
                evicted = entry.channel
            }
            let id = ObjectIdentifier(channel)
            state.connections[id] = Connection(channel: channel)
            state.appendIdle(id)
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    func setBusy(_ channel: any Channel, _ busy: Bool) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            guard state.connections[id] != nil else { return }
            state.unlinkIdle(id)
            if !busy { state.appendIdle(id) }  // idle again: now the most recently idle
        }
    }

    func remove(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            state.unlinkIdle(id)
            state.connections[id] = nil
        }
    }

    private struct Connection {
        let channel: any Channel
        /// Neighbours in the idle list while idle; both nil (and `idle` false) while busy.
        var idle = false
        var olderIdle: ObjectIdentifier?
        var newerIdle: ObjectIdentifier?
    }

    /// Every connection, with the idle ones linked in the order they became idle: the longest idle
    /// is the list's head, so an admission past the cap takes O(1) under the lock instead of
    /// scanning thousands of connections while every other connection's events wait for it.
    private struct State {
        var connections: [ObjectIdentifier: Connection] = [:]
        var longestIdle: ObjectIdentifier?
        var newestIdle: ObjectIdentifier?

        mutating func appendIdle(_ id: ObjectIdentifier) {
            guard connections[id]?.idle == false else { return }
            connections[id]?.idle = true
            connections[id]?.olderIdle = newestIdle
            connections[id]?.newerIdle = nil
            if let newestIdle { connections[newestIdle]?.newerIdle = id } else { longestIdle = id }
            newestIdle = id
        }

        mutating func unlinkIdle(_ id: ObjectIdentifier) {
            guard let entry = connections[id], entry.idle else { return }
            if let older = entry.olderIdle { connections[older]?.newerIdle = entry.newerIdle } else { longestIdle = entry.newerIdle }
            if let newer = entry.newerIdle { connections[newer]?.olderIdle = entry.olderIdle } else { newestIdle = entry.olderIdle }
            connections[id]?.idle = false
            connections[id]?.olderIdle = nil
            connections[id]?.newerIdle = nil
        }
    }
}

/// The first handler of every connection, where raw bytes arrive: it admits the connection into
/// the registry (or answers 503 and closes it), gives each request `requestTimeout` from its first
/// byte to the first byte of its answer, and gives an answer being sent `writeTimeout` without
/// progress, closing the connection when a client takes longer to send its request (slowloris:
/// headers or a body dribbled a byte at a time) or to take its answer (a slow or stalled reader,
/// whose unsent answer would otherwise be held, with its connection, forever). Hummingbird's idle
/// timeout counts each body part as activity, so it never ends a dribbled body, and it gives
/// dribbled headers the whole idle timeout; this handler sits before the HTTP decoder so that
/// headers that never complete are timed from their first byte.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = ByteBuffer

    /// What a connection over the cap gets before it is closed when every open one is busy: a
    /// whole response in one small write (it fits any fresh socket's send buffer, so the write
    /// completes at once and the close follows), never read by the HTTP decoder.
    static let overloadedResponse: String = {
        let body = #"{"error":"overloaded","reason":"every connection this server allows is in the middle of a request; retry shortly"}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 1\r\nConnection: close\r\n\r\n\(body)"
    }()

    private let registry: ConnectionRegistry
    private let requestTimeout: TimeAmount
    private let writeTimeout: TimeAmount
    private var admitted = false
    /// Refused over the cap: what the client sends is dropped until the 503 is written and the connection closed.
    private var refused = false
    /// The close scheduled for the request being read, from its first byte until its answer starts.
    private var requestDeadline: Scheduled<Void>?
    /// The close scheduled while answer bytes wait for the client to take them, pushed back by
    /// every write the socket completes.
    private var writeDeadline: Scheduled<Void>?
    /// Writes handed to the socket and not yet completed: the connection is busy until they are.
    private var pendingWrites = 0

    init(registry: ConnectionRegistry, requestTimeout: TimeAmount, writeTimeout: TimeAmount) {
        self.registry = registry
        self.requestTimeout = requestTimeout
        self.writeTimeout = writeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        requestDeadline = nil
        writeDeadline?.cancel()
        writeDeadline = nil
        registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if requestDeadline == nil {
            registry.setBusy(context.channel, true)
            requestDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: requestTimeout) {
                context.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        requestDeadline?.cancel()
        requestDeadline = nil
        pendingWrites += 1
        if writeDeadline == nil { scheduleWriteDeadline(context) }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            self.writeDeadline?.cancel()
            self.writeDeadline = nil
            if self.pendingWrites > 0, context.channel.isActive {
                self.scheduleWriteDeadline(context)  // progress: the client took bytes; time the rest afresh
            } else if self.requestDeadline == nil {
                self.registry.setBusy(context.channel, false)
            }
        }
        context.write(data, promise: written)
    }

    private func scheduleWriteDeadline(_ context: ChannelHandlerContext) {
        writeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: writeTimeout) {
            context.close(promise: nil)
        }
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !admitted else { return }
        admitted = true
        guard !registry.admit(context.channel) else { return }
        refused = true
        let response = context.channel.allocator.buffer(string: Self.overloadedResponse)
        context.writeAndFlush(wrapOutboundOut(response)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}

/// Hummingbird adds extra handlers after its HTTP decoder, where bytes are already requests, so
/// this one puts a `ConnectionGuardHandler` at the front of the pipeline when it is added; after
/// that it only passes events on (NIO wants every handler inbound or outbound; it never reads).
final class ConnectionGuardInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never

    private let registry: ConnectionRegistry
    private let requestTimeout: TimeAmount
    private let writeTimeout: TimeAmount

    init(registry: ConnectionRegistry, requestTimeout: TimeAmount, writeTimeout: TimeAmount) {
        self.registry = registry
        self.requestTimeout = requestTimeout
        self.writeTimeout = writeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let guardHandler = ConnectionGuardHandler(registry: registry, requestTimeout: requestTimeout, writeTimeout: writeTimeout)
        do {
            try context.pipeline.syncOperations.addHandler(guardHandler, position: .first)
        } catch {
            context.close(promise: nil)  // a connection without its limits is not served
        }
    }
}
