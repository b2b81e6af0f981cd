import Foundation
import HTTPTypes
import NIOCore
public import WOPIClient
import WOPIStorage

/// A `WOPITransport` that sends a `WOPIClient`'s requests through a ``WOPITestClient``: the client talks to a
/// `WOPIHost`, a `WOPIDeployment` or any router in-process, with no socket and no port.
///
/// It is valid inside the ``WOPITestClient/run(router:_:)`` (or `host:`) closure that made its
/// test client. Every URL is answered as if sent to ``WOPITestClient/origin``, so the URLs the host hands out (a
/// child's `Url`, a container's ancestors, the bootstrapper's endpoints) lead back to it.
///
/// ```swift
/// try await WOPITestClient.run(router: deployment.router()) { testClient in
///     let client = WOPIClient(transport: WOPITestTransport(testClient))
///     let info = try await client.checkFileInfo(resource)
///     #expect(info.baseFileName == "Welcome.docx")
/// }
/// ```
///
/// A test transport collects each request body before sending it and answers with the whole response body (in
/// ``ByteStream/preferredChunkSize`` parts, with its `Content-Length`), so memory grows with the bodies it carries:
/// it is for tests, not for large files. A test of the HTTP stack itself uses `AsyncHTTPClientTransport` against a
/// real socket.
public struct WOPITestTransport: WOPITransport {
    /// The in-process client the requests go through.
    public let client: WOPITestClient

    /// The largest request body the transport collects: 1 GiB.
    public static let maximumRequestBodySize = 1 << 30

    /// Creates a transport over `client`.
    public init(_ client: WOPITestClient) {
        self.client = client
    }

    public func send(_ request: WOPITransportRequest) async throws -> WOPITransportResponse {
        let body = try await request.body?.collect(upTo: Self.maximumRequestBodySize)
        let response = try await client.send(
            request.method, request.url.absoluteString, headers: request.headers, body: body)
        return WOPITransportResponse(
            status: response.status, headers: response.headers, body: Self.stream(response.body))
    }

    /// `buffer` as a stream of parts of at most ``ByteStream/preferredChunkSize`` bytes, with its length known.
    static func stream(_ buffer: ByteBuffer) -> ByteStream {
        var rest = buffer
        var parts: [ByteBuffer] = []
        while let part = rest.readSlice(length: min(rest.readableBytes, ByteStream.preferredChunkSize)),
            part.readableBytes > 0
        {
            parts.append(part)
        }
        return ByteStream(chunks: parts)
    }
}

extension WOPITestClient {
    /// A `WOPITransport` over this client, for a `WOPIClient` that talks to the host in-process.
    public var transport: WOPITestTransport { WOPITestTransport(self) }
}
