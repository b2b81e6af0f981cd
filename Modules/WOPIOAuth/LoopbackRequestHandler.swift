import Foundation
import NIOCore
import NIOHTTP1

/// Answers the browser's requests on one loopback connection: hands the callback to the receiver's state and
/// answers everything else with 404.
final class LoopbackRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: LoopbackReceiverState
    private let path: String
    private let origin: String
    private var head: HTTPRequestHead?

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - state: The receiver's shared state.
    ///   - path: The callback path, such as `/callback`.
    ///   - origin: The redirect URI's origin, such as `http://127.0.0.1:53124`.
    init(state: LoopbackReceiverState, path: String, origin: String) {
        self.state = state
        self.path = path
        self.origin = origin
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            handle(head, context: context)
        }
    }

    private func handle(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let requestPath = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard head.method == .GET, requestPath == path, let url = URL(string: origin + head.uri) else {
            respond(.notFound, context: context)
            return
        }
        let promise = context.eventLoop.makePromise(of: LoopbackPage.self)
        guard state.deliver(.init(url: url, respond: promise), from: context.channel) else {
            promise.succeed(.alreadyHandled)
            respond(.alreadyHandled, context: context)
            return
        }
        promise.futureResult.assumeIsolated().whenSuccess { page in
            self.respond(page, context: context)
        }
    }

    /// Writes the page and closes the connection once it is sent.
    private func respond(_ page: LoopbackPage, context: ChannelHandlerContext) {
        let body = context.channel.allocator.buffer(string: page.html)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'")
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: page.status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
