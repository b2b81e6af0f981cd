import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
import WOPIDeployment

/// `RequestReadGuard` on an `EmbeddedChannel`, whose event loop moves only when the test advances it: a slow head, a
/// trickling body, a body the host itself reads slowly, a keep-alive wait, and an unframable body.
struct RequestReadGuardTests {
    static let timeouts = RequestTimeouts(header: .seconds(3), body: .seconds(2), minimumBodyRate: 100)

    static func connectedChannel() async throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(
            RequestReadGuard(timeouts: timeouts, logger: Logger(label: "test")))
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).get()
        return (channel, loop)
    }

    static func head(_ fields: HTTPFields = [:]) -> HTTPRequestPart {
        .head(HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/wopi/files/a", headerFields: fields))
    }

    @Test("a head not complete within the header timeout closes the connection; one that arrives in time does not")
    func slowHead() async throws {
        let (channel, loop) = try await Self.connectedChannel()
        loop.advanceTime(by: .seconds(2))
        #expect(channel.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "3 s without a head")

        let (served, servedLoop) = try await Self.connectedChannel()
        servedLoop.advanceTime(by: .seconds(2))
        try served.writeInbound(Self.head())
        try served.writeInbound(HTTPRequestPart.end(nil))
        // The response takes a minute: the host is not waiting for a head meanwhile.
        servedLoop.advanceTime(by: .seconds(60))
        #expect(served.isActive)
        try served.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try served.writeOutbound(HTTPResponsePart.end(nil))
        // Keep-alive: the next head is due within the header timeout of the response's end.
        servedLoop.advanceTime(by: .seconds(2))
        #expect(served.isActive)
        servedLoop.advanceTime(by: .seconds(1))
        #expect(!served.isActive)
    }

    @Test("a body that trickles below the minimum rate while the host asks for more is closed")
    func tricklingBody() async throws {
        let (channel, loop) = try await Self.connectedChannel()
        try channel.writeInbound(Self.head())
        // A byte every 5 s, each read asked for at once.
        for _ in 0..<3 where channel.isActive {
            channel.read()
            loop.advanceTime(by: .seconds(5))
            if channel.isActive { try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(bytes: [1]))) }
        }
        #expect(!channel.isActive)
    }

    @Test("a body at the minimum rate, or one the host reads slowly, keeps its connection")
    func steadyAndBackPressuredBodies() async throws {
        let (steady, steadyLoop) = try await Self.connectedChannel()
        try steady.writeInbound(Self.head())
        for _ in 0..<30 {
            steady.read()
            steadyLoop.advanceTime(by: .seconds(1))
            try steady.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0, count: 100)))
        }
        #expect(steady.isActive)

        // The host asked for nothing for 60 s (its storage was slow): none of it counts.
        let (pressured, pressuredLoop) = try await Self.connectedChannel()
        try pressured.writeInbound(Self.head())
        pressuredLoop.advanceTime(by: .seconds(60))
        #expect(pressured.isActive)
        pressured.read()
        pressuredLoop.advanceTime(by: .seconds(3))
        #expect(!pressured.isActive, "once it asks, 3 s without a byte is past the body timeout")
    }

    @Test("a Transfer-Encoding other than chunked is answered 400 and closed, and reaches no route")
    func unframableBody() async throws {
        for coding in ["xchunked", "gzip, chunked", "chunked, identity"] {
            let (channel, _) = try await Self.connectedChannel()
            try channel.writeInbound(Self.head([.transferEncoding: coding]))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "\(coding)")
            guard case .head(let response)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
                Issue.record("no response head for \(coding)")
                continue
            }
            #expect(response.status == .badRequest && response.headerFields[.connection] == "close")
            #expect(!channel.isActive, "\(coding)")
        }
        let (chunked, _) = try await Self.connectedChannel()
        try chunked.writeInbound(Self.head([.transferEncoding: "Chunked"]))
        #expect(try chunked.readInbound(as: HTTPRequestPart.self) != nil, "chunked is framed")
    }
}
