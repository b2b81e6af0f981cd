import HTTPTypes
public import NIOCore
public import NIOHTTP1
public import WOPITesting

/// ``HTTP``'s calls, sent in-process through a `WOPITestClient` instead of a socket: the same arguments and the same
/// ``TestHTTP/Reply``, so a suite moves off sockets by calling `harness.get(…)` where it called `HTTP.get(…)`.
public protocol InProcessHTTP: Sendable {
    /// The client the requests go through.
    var client: WOPITestClient { get }
}

extension InProcessHTTP {
    /// Sends one request; `url` may be absolute (its origin is dropped) or a path.
    public func send(
        _ method: HTTPMethod, _ url: String, headers: [String: String] = [:], body: String? = nil,
        bodyBuffer: ByteBuffer? = nil
    ) async throws -> TestHTTP.Reply {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let name = HTTPField.Name(name) else { throw InProcessHTTPError.invalidHeaderName(name) }
            fields.append(HTTPField(name: name, value: value))
        }
        let reply = try await client.send(
            HTTPRequest.Method(rawValue: method.rawValue)!, url, headers: fields,
            body: bodyBuffer ?? body.map(ByteBuffer.init))
        return TestHTTP.Reply(
            status: reply.status.code, headers: HTTPHeaders(reply.headers.map { ($0.name.rawName, $0.value) }),
            body: reply.body)
    }

    /// `GET url`.
    public func get(_ url: String, headers: [String: String] = [:]) async throws -> TestHTTP.Reply {
        try await send(.GET, url, headers: headers)
    }

    /// `POST url` with `headers` and `body`.
    public func post(_ url: String, _ headers: [String: String], body: String? = nil) async throws -> TestHTTP.Reply {
        try await send(.POST, url, headers: headers, body: body)
    }
}

/// A request an in-process harness cannot send.
public enum InProcessHTTPError: Error {
    /// `name` is not a valid HTTP field name.
    case invalidHeaderName(String)
}
