import Dispatch
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing
import WOPIDeployment
import WOPIServerHummingbird
import WOPITestSupport

/// `WOPIDeployment.server()`, on a real socket: it handles a connection's requests on the event loop that reads it
/// (Docs/architecture.md, "Requests run on their connection's event loop"), and reads a body in pieces of up to
/// `Configuration.maximumReadSize`.
@Suite struct DeploymentEventLoopTests {
    /// Where a request ran: on an event loop, and on the same one after a wait off the loop and in a child task.
    static func whereItRan() async -> String {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return "off the event loops" }
        await withCheckedContinuation { resumed in DispatchQueue.global().async { resumed.resume() } }
        guard MultiThreadedEventLoopGroup.currentEventLoop === loop else { return "moved after a wait" }
        async let child = MultiThreadedEventLoopGroup.currentEventLoop === loop
        guard await child else { return "a child task ran elsewhere" }
        return "on its event loop"
    }

    /// Runs `body` with a deployment on SQLite in a temporary directory, an empty router, and a quiet logger.
    static func withDeployment(
        _ body: (WOPIDeployment, Router<WOPIRequestContext>, Logger) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let deployment = try await WOPIDeployment(
            stores: try DeploymentStores.sqlite(directory: directory.url), configuration: .init(), logger: logger)
        try await body(deployment, Router(context: WOPIRequestContext.self), logger)
    }

    @Test func requestsRunOnTheirConnectionsEventLoop() async throws {
        try await Self.withDeployment { deployment, router, logger in
            deployment.addRoutes(to: router)
            router.get("where") { _, _ in await Self.whereItRan() }
            let server = deployment.server()
            try await LoopbackServer.run(router, server: server, logger: logger) { (base: String) async throws in
                for _ in 0..<3 {
                    #expect(try await HTTP.get(base + "/where").text == "on its event loop")
                }
                #expect(try await HTTP.get(base + "/healthz").status == 200)
            }
            // The same route on Hummingbird's own server runs on the cooperative pool: the check can tell them apart.
            try await LoopbackServer.run(router, logger: logger) { (base: String) async throws in
                #expect(try await HTTP.get(base + "/where").text == "off the event loops")
            }
        }
    }

    @Test func bodiesAreReadInPiecesOfUpToTheMaximumReadSize() async throws {
        try await Self.withDeployment { deployment, router, logger in
            router.post("largest-piece") { request, _ -> String in
                var largest = 0
                for try await piece in request.body { largest = max(largest, piece.readableBytes) }
                return "\(largest)"
            }
            // 16 MiB sent at once over loopback: the socket holds more than a read takes, so reads fill their
            // buffers and the adaptive buffer grows to its maximum.
            let body = ByteBuffer(repeating: UInt8(ascii: "a"), count: 16 << 20)
            func largestPiece(_ base: String) async throws -> Int {
                Int(try await HTTP.send(.POST, base + "/largest-piece", bodyBuffer: body).text) ?? 0
            }
            let maximum = deployment.configuration.maximumReadSize
            try await LoopbackServer.run(router, server: deployment.server(), logger: logger) {
                (base: String) async throws in
                let largest = try await largestPiece(base)
                #expect(largest > 64 << 10 && largest <= maximum)
            }
            // Hummingbird's own server reads at most NIO's default, 64 KiB.
            try await LoopbackServer.run(router, logger: logger) { (base: String) async throws in
                #expect(try await largestPiece(base) <= 64 << 10)
            }
        }
    }
}
