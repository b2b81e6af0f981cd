public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The default ``OAuthHTTPTransport``: AsyncHTTPClient, the HTTP stack `WOPIClient` uses too, so an app that signs
/// in and then calls WOPI runs one HTTP client (the loopback redirect receiver is a server, not a client).
///
/// Pass the `HTTPClient` of your `AsyncHTTPClientTransport` (`WOPIClient`) to share its connection pool; without
/// one, the transport uses one process-wide client that never follows redirects. The client must not follow
/// redirects: a 3xx from a token endpoint comes back as the response, which the token client reports as an error
/// rather than resending credentials elsewhere. Responses over ``maximumBodySize`` are refused.
public struct AsyncHTTPClientOAuthTransport: OAuthHTTPTransport {
    /// The process-wide client of ``init(timeout:maximumBodySize:)``: redirects off, never shut down (like
    /// `HTTPClient.shared`).
    private static let sharedClient = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    /// The client requests go through.
    public let client: HTTPClient
    /// The time a whole request may take.
    public let timeout: Duration
    /// The largest response body accepted, in bytes.
    public let maximumBodySize: Int

    /// Creates a transport over `client` (configure it with `redirectConfiguration: .disallow`, as
    /// `AsyncHTTPClientTransport`'s default configuration is). The client stays its owner's to shut down.
    public init(client: HTTPClient, timeout: Duration = .seconds(30), maximumBodySize: Int = 1 << 20) {
        self.client = client
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
    }

    /// Creates a transport over a process-wide client that never follows redirects.
    public init(timeout: Duration = .seconds(30), maximumBodySize: Int = 1 << 20) {
        self.init(client: Self.sharedClient, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    /// Sends the request and returns the whole (small) response.
    public func send(_ request: OAuthHTTPRequest) async throws -> OAuthHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: TimeAmount.nanoseconds(timeout.nanoseconds))
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw OAuthError(
                .invalidResponse,
                "The response from \(request.url.absoluteString) is larger than \(maximumBodySize) bytes; "
                    + "check the endpoint URL.")
        }
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return OAuthHTTPResponse(
            status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }
}
