import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A tiny HTTP server on 127.0.0.1 that answers each request with the next reply of a script: for the edges a real
/// S3 server will not produce on demand (`503 SlowDown`, a `500`, a dropped connection, a stall, a redirect to
/// another region). Everything else is tested against Ceph.
final class ScriptedS3Server: Sendable {
    /// One scripted reply.
    enum Reply: Sendable {
        /// An answer with `status`, `headers` and `body`.
        case respond(HTTPResponseStatus, headers: [(String, String)] = [], body: String = "")
        /// Closes the connection without answering.
        case dropConnection
        /// Never answers (the client's deadline ends the request).
        case stall

        /// S3's XML error document with `code`.
        static func error(_ status: HTTPResponseStatus, _ code: String, headers: [(String, String)] = []) -> Reply {
            .respond(
                status, headers: [("Content-Type", "application/xml")] + headers,
                body: "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(code)</Code>"
                    + "<Message>scripted \(code)</Message><RequestId>req-\(code)</RequestId></Error>")
        }
    }

    /// A request the server received.
    struct Received: Sendable {
        var method: HTTPMethod
        var uri: String
        var headers: HTTPHeaders
        var bodyLength: Int
    }

    private let channel: any Channel
    private let script: Mutex<[Reply]>
    private let log = Mutex<[Received]>([])

    /// The port it listens on.
    let port: Int

    private init(channel: any Channel, script: [Reply]) {
        self.channel = channel
        self.script = Mutex(script)
        self.port = channel.localAddress?.port ?? 0
    }

    /// The requests received so far, in order.
    var requests: [Received] { log.withLock { $0 } }

    /// Starts a server on a free loopback port; once the script is used up it answers `500`.
    static func start(_ replies: [Reply]) async throws -> ScriptedS3Server {
        let box = Mutex<ScriptedS3Server?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler { box.withLock { $0 } })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = ScriptedS3Server(channel: channel, script: replies)
        box.withLock { $0 = server }
        return server
    }

    /// Stops listening.
    func shutdown() async throws {
        try await channel.close()
    }

    fileprivate func next(for request: Received) -> Reply {
        log.withLock { $0.append(request) }
        return script.withLock { $0.isEmpty ? .error(.internalServerError, "ScriptExhausted") : $0.removeFirst() }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let server: @Sendable () -> ScriptedS3Server?
        private var head: HTTPRequestHead?
        private var bodyLength = 0

        init(_ server: @escaping @Sendable () -> ScriptedS3Server?) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                bodyLength = 0
            case .body(let buffer):
                bodyLength += buffer.readableBytes
            case .end:
                guard let head, let server = server() else { return }
                let reply = server.next(
                    for: Received(method: head.method, uri: head.uri, headers: head.headers, bodyLength: bodyLength))
                switch reply {
                case .dropConnection:
                    context.close(promise: nil)
                case .stall:
                    break
                case .respond(let status, let headers, let body):
                    var fields = HTTPHeaders(headers)
                    fields.replaceOrAdd(name: "Content-Length", value: String(body.utf8.count))
                    fields.replaceOrAdd(name: "x-amz-request-id", value: "scripted")
                    context.write(
                        wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields))),
                        promise: nil)
                    if head.method != .HEAD, !body.isEmpty {
                        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
                    }
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                }
            }
        }
    }
}
