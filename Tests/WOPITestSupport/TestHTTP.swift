public import AsyncHTTPClient
import Foundation
public import NIOCore
public import NIOHTTP1

/// A tiny HTTP client for tests over AsyncHTTPClient. It never follows redirects (a `302` and its `Location` can be
/// checked) and keeps answers' headers as sent, empty values included.
public enum TestHTTP {
    /// A whole answer.
    public struct Reply: Sendable {
        /// The status code.
        public let status: Int
        /// The headers, as sent.
        public let headers: HTTPHeaders
        /// The body, collected.
        public let body: ByteBuffer

        /// A reply with `status`, `headers` and `body`.
        public init(status: Int, headers: HTTPHeaders, body: ByteBuffer) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The first value of the header `name`, `nil` when absent.
        public func header(_ name: String) -> String? { headers.first(name: name) }
        /// The body as UTF-8 text.
        public var text: String { String(buffer: body) }
        /// The body's bytes.
        public var bytes: [UInt8] { Array(body.readableBytesView) }
        /// The body as a JSON object (empty when it is not one).
        public func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] ?? [:]
        }
    }

    /// The shared client: no redirects. A request waits for a connection (its own, or a free one of the 16 a host
    /// may have at once) up to ``Polling/patience``, not AsyncHTTPClient's 10 s: a test that sends a flood of
    /// requests on a loaded machine queues for connections longer than that.
    public static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: TimeAmount(Polling.patience)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)))

    /// Sends one request with `headers` in order and `body` (if any), and collects the answer (up to 64 MiB).
    public static func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: ByteBuffer? = nil,
        timeout: TimeAmount = .seconds(60)
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        let response = try await client.execute(request, timeout: timeout)
        let collected = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: collected)
    }
}
