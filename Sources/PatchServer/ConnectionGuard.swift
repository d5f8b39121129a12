import NIOCore
import Synchronization

/// The open connections of one server, so a new one past `limit` can take the place of the one
/// that has been idle longest, or be closed when every one is busy.
///
/// Idle connections (nothing sent yet, or between requests) cost the client nothing to keep open,
/// so refusing newcomers once they fill the table would let a few thousand silent sockets lock
/// every device out until the idle timeout; evicting the longest idle one keeps checks answered
/// and closes only connections no request is waiting on. Busy connections are never evicted;
/// those that stay busy without finishing a request are the request timeout's to close.
final class ConnectionRegistry: Sendable {
    let limit: Int
    private let connections = Mutex<[ObjectIdentifier: Connection]>([:])

    private struct Connection {
        let channel: any Channel
        /// When it last became idle; nil while a request is being read or answered.
        var idleSince: NIODeadline?
    }

    init(limit: Int) { self.limit = limit }

    /// Registers a new connection (idle: it has sent nothing yet). Past the limit, closes the
    /// longest-idle other connection to make room, or returns false when all of them are busy.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted): (Bool, (any Channel)?) = connections.withLock { connections in
            if connections.count >= limit {
                let oldest = connections.min { ($0.value.idleSince ?? .distantFuture) < ($1.value.idleSince ?? .distantFuture) }
                guard let oldest, oldest.value.idleSince != nil else { return (false, nil) }
                connections[oldest.key] = nil
                connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: .now())
                return (true, oldest.value.channel)
            }
            connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: .now())
            return (true, nil)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    func setBusy(_ channel: any Channel, _ busy: Bool) {
        connections.withLock { $0[ObjectIdentifier(channel)]?.idleSince = busy ? nil : .now() }
    }

    func remove(_ channel: any Channel) {
        connections.withLock { $0[ObjectIdentifier(channel)] = nil }
    }
}

/// The first handler of every connection, where raw bytes arrive: it admits the connection into
/// the registry (or closes it), and gives each request `requestTimeout` from its first byte to
/// the first byte of its answer, closing the connection when a client takes longer to send it
/// (slowloris: headers or a body dribbled a byte at a time). Hummingbird's idle timeout counts
/// each body part as activity, so it never ends a dribbled body, and it gives dribbled headers
/// the whole idle timeout; this handler sits before the HTTP decoder so that headers that never
/// complete are timed from their first byte.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = IOData

    private let registry: ConnectionRegistry
    private let requestTimeout: TimeAmount
    private var admitted = false
    /// The close scheduled for the request being read, from its first byte until its answer starts.
    private var requestDeadline: Scheduled<Void>?
    /// Writes handed to the socket and not yet completed: the connection is busy until they are.
    private var pendingWrites = 0

    init(registry: ConnectionRegistry, requestTimeout: TimeAmount) {
        self.registry = registry
        self.requestTimeout = requestTimeout
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
        registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            if self.pendingWrites == 0, self.requestDeadline == nil { self.registry.setBusy(context.channel, false) }
        }
        context.write(data, promise: written)
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !admitted else { return }
        admitted = true
        if !registry.admit(context.channel) { context.close(promise: nil) }
    }
}

/// Hummingbird adds extra handlers after its HTTP decoder, where bytes are already requests, so
/// this one puts a `ConnectionGuardHandler` at the front of the pipeline when it is added; after
/// that it only passes events on (NIO wants every handler inbound or outbound; it never reads).
final class ConnectionGuardInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never

    private let registry: ConnectionRegistry
    private let requestTimeout: TimeAmount

    init(registry: ConnectionRegistry, requestTimeout: TimeAmount) {
        self.registry = registry
        self.requestTimeout = requestTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let guardHandler = ConnectionGuardHandler(registry: registry, requestTimeout: requestTimeout)
        do {
            try context.pipeline.syncOperations.addHandler(guardHandler, position: .first)
        } catch {
            context.close(promise: nil)  // a connection without its limits is not served
        }
    }
}
