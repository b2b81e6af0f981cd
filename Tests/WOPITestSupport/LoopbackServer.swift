public import Hummingbird
public import HummingbirdCore
public import Logging
import ServiceLifecycle

/// Runs a Hummingbird router (or any responder builder) on 127.0.0.1 with an OS-chosen port for the duration of a
/// test body.
public enum LoopbackServer {
    /// Serves `router`, runs `body` with the base URL (`http://127.0.0.1:PORT`), then shuts the server down
    /// gracefully, whether `body` returns or throws. `server` is Hummingbird's HTTP/1.1 server unless given.
    public static func run<Builder: HTTPResponderBuilder, T: Sendable>(
        _ router: Builder, server: HTTPServerBuilder = .http1(), logger: Logger, _ body: (String) async throws -> T
    ) async throws -> T
    where Builder.Responder.Context: RequestContext, Builder.Responder.Context.Source == ApplicationRequestContextSource
    {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [app], logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            do {
                let result = try await body("http://127.0.0.1:\(port)")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}
