public import Foundation
public import HTTPTypes
public import WOPIStorage

/// Sends one HTTP request and returns the response with a streamed body: the only network seam of ``WOPIClient``.
///
/// ``AsyncHTTPClientTransport`` is the implementation for servers and command-line tools (it streams both ways
/// with flat memory). An Apple-platform app may conform a `URLSession` wrapper instead. This protocol is open
/// for third-party conformances.
///
/// A conformance must not follow redirects for non-GET requests, must send ``WOPITransportRequest/body`` with a
/// `Content-Length` when ``ByteStream/knownLength`` is set (chunked otherwise), and must let the caller stop
/// reading ``WOPITransportResponse/body`` early (dropping it cancels the download).
public protocol WOPITransport: Sendable {
    /// Sends `request` and returns once the response head has arrived.
    ///
    /// - Throws: an error when the request could not be sent or no response arrived (``WOPIClient`` wraps it
    ///   in a ``WOPIClientError`` with code ``WOPIClientError/Code/transport``).
    func send(_ request: WOPITransportRequest) async throws -> WOPITransportResponse
}

/// One HTTP request for a ``WOPITransport``.
public struct WOPITransportRequest: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The absolute URL, access token included.
    public var url: URL
    /// The header fields.
    public var headers: HTTPFields
    /// The body, streamed; `nil` for none.
    public var body: ByteStream?
    /// How long the server has to start answering (the response head); body transfers are bounded by idle
    /// timeouts instead.
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: HTTPRequest.Method, url: URL, headers: HTTPFields = HTTPFields(), body: ByteStream? = nil,
        timeout: Duration = .seconds(60)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The response of a ``WOPITransport``: status and headers, and a body that streams as it is read.
public struct WOPITransportResponse: Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The header fields.
    public var headers: HTTPFields
    /// The body; single pass. Its ``ByteStream/knownLength`` is the `Content-Length` when the server sent one.
    public var body: ByteStream

    /// Creates a response.
    public init(status: HTTPResponse.Status, headers: HTTPFields, body: ByteStream) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
