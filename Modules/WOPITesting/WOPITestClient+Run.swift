public import Hummingbird
internal import HummingbirdTesting
public import WOPIHTTPEdge
public import WOPIServer
public import WOPIServerHummingbird

extension WOPITestClient {
    /// Runs `test` with a client for `router`, in-process. The router's services, if its application has any, run
    /// for the duration of `test`.
    public static func run<Value: Sendable>(
        router: Router<WOPIRequestContext>, _ test: @Sendable (WOPITestClient) async throws -> Value
    ) async throws -> Value {
        try await Application(router: router).test(.router) { client in
            try await test(WOPITestClient(client: client))
        }
    }

    /// Runs `test` with a client for `host`'s WOPI endpoints and bootstrapper, and for `endpoints` (an
    /// `OAuthAuthorizationServer`, host pages, your own), in-process.
    public static func run<Value: Sendable>(
        host: WOPIHost, endpoints: [any HTTPEndpoints] = [], _ test: @Sendable (WOPITestClient) async throws -> Value
    ) async throws -> Value {
        let router = Router(context: WOPIRequestContext.self)
        WOPIRoutes.add(to: router, host: host)
        for endpoint in endpoints { WOPIRoutes.add(to: router, endpoints: endpoint) }
        return try await run(router: router, test)
    }
}
