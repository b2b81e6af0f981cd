import Dispatch
import Hummingbird
import Logging
import NIOPosix
import Testing
import WOPIDeployment
import WOPIServerHummingbird
import WOPITestSupport

/// `WOPIDeployment.server()` handles a connection's requests on the event loop that reads it (Docs/architecture.md,
/// "Requests run on their connection's event loop"), on a real socket.
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

    @Test func requestsRunOnTheirConnectionsEventLoop() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let deployment = try await WOPIDeployment(
            stores: try DeploymentStores.sqlite(directory: directory.url), configuration: .init(), logger: logger)
        let router = Router(context: WOPIRequestContext.self)
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
