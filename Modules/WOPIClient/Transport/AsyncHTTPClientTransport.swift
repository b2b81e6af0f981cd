public import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import WOPIStorage

/// A ``WOPITransport`` over AsyncHTTPClient: request and response bodies stream chunk by chunk, so memory stays
/// flat whatever the file size.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// defer { try? await transport.shutdown() }
/// let client = WOPIClient(transport: transport)
/// ```
///
/// A transport made with ``init(configuration:)`` owns its `HTTPClient` and must be shut down with
/// ``shutdown()``; one made with ``init(client:)`` leaves the client to its owner.
public final class AsyncHTTPClientTransport: WOPITransport {
    /// The underlying client.
    public let client: HTTPClient
    private let ownsClient: Bool

    /// The configuration used by ``init(configuration:)`` by default: redirects off, a 10 s connect timeout and
    /// a 120 s idle read timeout (a stalled transfer fails instead of hanging).
    ///
    /// AsyncHTTPClient opens at most 8 connections to a host by default and queues the requests beyond them; the
    /// connect timeout also bounds that wait, so a request queued for 10 s fails with
    /// `HTTPClientError.getConnectionFromPoolTimeout`. An app that sends many requests to one host at once raises
    /// `connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit` or the connect timeout in its configuration.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(120))
        configuration.decompression = .disabled
        return configuration
    }

    /// Creates a transport with its own `HTTPClient` on the shared event loop group; call ``shutdown()`` when done.
    public init(configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration) {
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        ownsClient = true
    }

    /// Creates a transport over an existing client, which its owner shuts down.
    public init(client: HTTPClient) {
        self.client = client
        ownsClient = false
    }

    /// Shuts the owned client down; does nothing for a client passed to ``init(client:)``.
    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    public func send(_ request: WOPITransportRequest) async throws -> WOPITransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body = request.body {
            let length: HTTPClientRequest.Body.Length = body.knownLength.map { .known($0) } ?? .unknown
            outgoing.body = .stream(body, length: length)
        } else if request.method == .post || request.method == .put {
            outgoing.body = .bytes(ByteBuffer())
        }
        let seconds = request.timeout.components.seconds
        let response = try await client.execute(outgoing, timeout: .seconds(max(1, seconds)))
        var headers = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
        }
        let length = response.headers.first(name: "content-length").flatMap { Int64($0) }
        return WOPITransportResponse(
            status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
            headers: headers, body: ByteStream(response.body, knownLength: length))
    }
}
