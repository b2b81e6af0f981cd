import Foundation
import WOPIClient

/// A client over `transport`, or over a fresh `AsyncHTTPClientTransport` (shut down after `body`, which a failing shutdown fails) when it is `nil`.
func withClient<T: Sendable>(
    over transport: (any WOPITransport)? = nil, bootstrapper: URL? = nil,
    tokenProvider: (any BootstrapTokenProvider)? = nil, _ body: @Sendable (WOPIClient) async throws -> T
) async throws -> T {
    if let transport {
        return try await body(
            WOPIClient(transport: transport, bootstrapper: bootstrapper, tokenProvider: tokenProvider, logger: .quiet))
    }
    let socket = AsyncHTTPClientTransport()
    let client = WOPIClient(
        transport: socket, bootstrapper: bootstrapper, tokenProvider: tokenProvider, logger: .quiet)
    let result: Result<T, any Error>
    do { result = .success(try await body(client)) } catch { result = .failure(error) }
    try await socket.shutdown()
    return try result.get()
}
