import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 that counts the bytes crossing it each way, so a test measures what a client and a
/// host send each other at the socket: request and status lines, headers, bodies, frames, everything.
///
/// Start it first (its port is the URL clients use, e.g. a host's `--public-url`), then ``forward(to:)`` the host's
/// port once the host listens. Connections that arrive before that are closed.
public final class CountingProxy: Sendable {
    /// Bytes counted so far.
    public struct Counts: Sendable, Hashable {
        /// From clients to the host.
        public var sent: Int64 = 0
        /// From the host to clients.
        public var received: Int64 = 0

        /// Both directions.
        public var total: Int64 { sent + received }

        /// The bytes counted between `earlier` and these.
        public func since(_ earlier: Counts) -> Counts {
            Counts(sent: sent - earlier.sent, received: received - earlier.received)
        }
    }

    private struct State {
        var upstreamPort: Int?
        var counts = Counts()
        var trigger: (sent: Int64, action: @Sendable () -> Void)?
    }

    private let state = NIOLockedValueBox(State())
    private let listener: NIOLockedValueBox<(any Channel)?> = NIOLockedValueBox(nil)
    /// The port clients connect to.
    public var port: Int { listener.withLockedValue { $0?.localAddress?.port } ?? 0 }

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    private init() {}

    /// Starts listening on an OS-chosen port of 127.0.0.1.
    public static func start() async throws -> CountingProxy {
        let proxy = CountingProxy()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [proxy] child in proxy.connect(child) }
            .bind(host: "127.0.0.1", port: 0).get()
        proxy.listener.withLockedValue { $0 = channel }
        return proxy
    }

    /// Sends every connection from now on to `port` on 127.0.0.1.
    public func forward(to port: Int) {
        state.withLockedValue { $0.upstreamPort = port }
    }

    /// The bytes counted so far.
    public var counts: Counts { state.withLockedValue { $0.counts } }

    /// Runs `action` once, when the bytes sent from clients reach `sent`: on the proxy's event loop, before the
    /// piece that reached it is passed on (so a test can kill a client at a given point of an upload).
    public func onSent(atLeast sent: Int64, _ action: @escaping @Sendable () -> Void) {
        state.withLockedValue { $0.trigger = (sent, action) }
    }

    private func countSent(_ count: Int64) {
        let action = state.withLockedValue { state -> (@Sendable () -> Void)? in
            state.counts.sent += count
            guard let trigger = state.trigger, state.counts.sent >= trigger.sent else { return nil }
            state.trigger = nil
            return trigger.action
        }
        action?()
    }

    /// Stops listening (open connections end with their peers).
    public func stop() async {
        let channel = listener.withLockedValue { $0 }
        try? await channel?.close()
    }

    private func connect(_ client: any Channel) -> EventLoopFuture<Void> {
        guard let upstreamPort = state.withLockedValue({ $0.upstreamPort }) else { return client.close() }
        return ClientBootstrap(group: client.eventLoop).connect(host: "127.0.0.1", port: upstreamPort)
            .flatMapThrowing { [self] upstream in
                try client.pipeline.syncOperations.addHandler(
                    Forwarder(partner: upstream) { count in self.countSent(count) })
                try upstream.pipeline.syncOperations.addHandler(
                    Forwarder(partner: client) { count in self.state.withLockedValue { $0.counts.received += count } })
            }
    }
}

/// Hands every byte read on one channel to its partner, counting it; closes the partner when its own side closes.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel
    private let count: @Sendable (Int64) -> Void

    init(partner: any Channel, count: @escaping @Sendable (Int64) -> Void) {
        self.partner = partner
        self.count = count
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        count(Int64(buffer.readableBytes))
        partner.writeAndFlush(buffer, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
