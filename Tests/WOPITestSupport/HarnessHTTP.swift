import HTTPTypes
public import NIOCore
public import NIOHTTP1
public import WOPITesting

/// ``HTTP``'s calls from a test harness: in-process through a `WOPITestClient`, or over a socket with ``TestHTTP``
/// when the harness runs a real server (a browser, or a test of the peer address, needs one). The same arguments
/// and the same ``TestHTTP/Reply`` either way, so a suite moves off sockets by calling `harness.get(…)` where it
/// called `HTTP.get(…)`.
public protocol HarnessHTTP: Sendable {
    /// The in-process client requests go through; `nil` when the harness listens on a socket.
    var client: WOPITestClient? { get }
}

extension HarnessHTTP {
    /// Sends one request. In-process, `url` may be absolute (its origin is dropped) or a path; over a socket it is
    /// absolute.
    public func send(
        _ method: HTTPMethod, _ url: String, headers: [String: String] = [:], body: String? = nil,
        bodyBuffer: ByteBuffer? = nil
    ) async throws -> TestHTTP.Reply {
        guard let client else {
            return try await TestHTTP.send(
                method, url, headers: headers.map { ($0.key, $0.value) }, body: bodyBuffer ?? body.map(ByteBuffer.init))
        }
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let name = HTTPField.Name(name) else { throw HarnessHTTPError.invalidHeaderName(name) }
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

/// A request a harness cannot send in-process.
public enum HarnessHTTPError: Error {
    /// `name` is not a valid HTTP field name.
    case invalidHeaderName(String)
}
