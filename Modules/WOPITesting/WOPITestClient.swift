import Foundation
public import HTTPTypes
internal import HummingbirdTesting
public import NIOCore

/// Sends requests to WOPIKit's endpoints in-process: each request goes straight to the router's responder, with no
/// socket, no port and no server task, and its answer comes back whole.
///
/// Get one from ``run(router:_:)`` (a `WOPIDeployment`'s `router()`, say) or ``run(host:endpoints:_:)``; it is
/// valid inside that closure only. Request bodies reach the endpoint as a stream (in 32 KiB parts), and streamed response bodies are
/// collected as the endpoint writes them, so a test sees exactly the bytes a socket client would.
///
/// ```swift
/// try await WOPITestClient.run(host: host) { client in
///     let token = host.tokens.mint(AccessToken(userID: "ana", resource: .file(id), expiresAt: .now + 600))
///     let info = try await client.send(.get, "/wopi/files/\(id)?access_token=\(token)")
///     #expect(info.status == .ok)
/// }
/// ```
public struct WOPITestClient: Sendable {
    /// The origin in-process requests are addressed to, so the URLs an endpoint builds from the request start
    /// with it: `http://localhost`.
    public static let origin = "http://localhost"

    let client: any TestClientProtocol

    /// Sends one request and returns the whole answer.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - target: A path with its query (`/wopi/files/1?access_token=…`), or an absolute URL whose path and query
    ///     are sent (the scheme and authority are dropped: every request is answered as if sent to ``origin``).
    ///   - headers: The request's header fields. `Content-Length` is set from `body`.
    ///   - body: The request body, if any.
    public func send(
        _ method: HTTPRequest.Method, _ target: String, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> WOPITestResponse {
        let response = try await client.executeRequest(
            uri: Self.pathAndQuery(of: target), method: method, headers: headers, body: body)
        return WOPITestResponse(head: response.head, body: response.body)
    }

    /// The path and query of `target`: itself when it is a path, else what follows its authority.
    static func pathAndQuery(of target: String) -> String {
        guard let scheme = target.range(of: "://") else { return target }
        let afterAuthority = target[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" }
        guard let start = afterAuthority else { return "/" }
        let rest = target[start...]
        return rest.hasPrefix("?") ? "/" + rest : String(rest)
    }
}
