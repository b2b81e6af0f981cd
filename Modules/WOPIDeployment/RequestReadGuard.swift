import HTTPTypes
package import Logging
package import NIOCore
package import NIOHTTPTypes
import WOPIHTTPEdge

/// Guards how a connection's requests are read, after the HTTP/1.1 codec and before any route: it closes a
/// connection whose client keeps the host waiting, and refuses a request whose body cannot be framed.
///
/// - **Framing.** A head whose `Transfer-Encoding` is not `chunked` or absent
///   (``WOPIHTTPEdge/HTTPFields/hasAcceptableTransferEncoding``) is answered 400 here, never reaches a route, and the
///   connection is closed: the bytes after it, which NIO would read as the next request, are never handled.
/// - **Time.** The idle timeout alone cannot stop a client that sends a byte every few seconds (each byte restarts
///   it), which holds a connection and its buffers forever. With a timer of the connection's event loop that counts
///   whole seconds (no clock is read), a request head must be complete within ``RequestTimeouts/header`` of the
///   moment the host waits for it (the connection opened, or the last response ended); and while a body is read,
///   the seconds in which the host asked for more and none came count as waiting (a body the host reads slowly,
///   because its storage is slow, is not the client's fault). Past ``RequestTimeouts/body`` of waiting, the body
///   must have brought ``RequestTimeouts/minimumBodyRate`` bytes per second of waiting beyond it.
package final class RequestReadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    private let timeouts: RequestTimeouts
    private let logger: Logger
    private var tick: RepeatedTask?
    /// Requests whose head arrived, and responses that ended: equal while the host waits for a request.
    private var headsRead = 0
    private var responsesEnded = 0
    private var secondsWaitingForHead = 0
    private var readingBody = false
    private var readPending = false
    private var bodyBytes = 0
    private var secondsWaitingForBody = 0
    /// Set once the connection is refused: nothing more is read from it.
    private var refused = false

    package init(timeouts: RequestTimeouts, logger: Logger) {
        self.timeouts = timeouts
        self.logger = logger
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    package func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        readPending = false
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.headerFields.hasAcceptableTransferEncoding else {
                refuseUnframedBody(context)
                return
            }
            headsRead += 1
            readingBody = true
            bodyBytes = 0
            secondsWaitingForBody = 0
        case .body(let chunk):
            bodyBytes += chunk.readableBytes
        case .end:
            readingBody = false
        }
        context.fireChannelRead(data)
    }

    package func read(context: ChannelHandlerContext) {
        readPending = true
        context.read()
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responsesEnded += 1
            if responsesEnded >= headsRead { secondsWaitingForHead = 0 }
        }
        context.write(data, promise: promise)
    }

    /// Answers 400 with `Connection: close` and closes the connection once the answer is written.
    private func refuseUnframedBody(_ context: ChannelHandlerContext) {
        refused = true
        stop()
        logger.notice("Connection closed: a request's Transfer-Encoding is neither chunked nor absent")
        let text = ByteBuffer(string: "Transfer-Encoding must be chunked or absent.\n")
        let head = HTTPResponse(
            status: .badRequest,
            headerFields: [
                .connection: "close", .contentType: "text/plain; charset=utf-8",
                .contentLength: String(text.readableBytes),
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(text)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard tick == nil, !refused else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        tick = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            bound.value.0.second(bound.value.1)
        }
    }

    private func stop() {
        tick?.cancel()
        tick = nil
    }

    /// One second passed: count it, and close the connection when a limit is passed.
    private func second(_ context: ChannelHandlerContext) {
        if headsRead == responsesEnded {
            secondsWaitingForHead += 1
            if secondsWaitingForHead >= timeouts.header.wholeSeconds {
                close(context, "its request head took \(timeouts.header.wholeSeconds) s or more")
            }
        } else if readingBody && readPending {
            secondsWaitingForBody += 1
            let beyond = secondsWaitingForBody - timeouts.body.wholeSeconds
            if beyond > 0 && bodyBytes < timeouts.minimumBodyRate * beyond {
                close(
                    context,
                    "its body kept the host waiting \(secondsWaitingForBody) s for \(bodyBytes) bytes "
                        + "(\(timeouts.minimumBodyRate) bytes a second are due after \(timeouts.body.wholeSeconds) s)")
            }
        }
    }

    private func close(_ context: ChannelHandlerContext, _ reason: String) {
        stop()
        logger.notice("Connection closed: \(reason)")
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension RequestReadGuard: Sendable {}

extension Duration {
    /// The duration in whole seconds, at least 1.
    var wholeSeconds: Int {
        max(1, Int(components.seconds))
    }
}
