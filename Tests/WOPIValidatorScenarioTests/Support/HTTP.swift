import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A tiny HTTP client for tests, over AsyncHTTPClient; answers keep headers as sent (empty values included).
/// Copied from `WOPIServerTests/Support` (test targets do not import each other) and extended with ordered
/// request headers and raw bodies, so requests can mirror the validator's byte for byte.
enum HTTP {
    struct Reply: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer

        func header(_ name: String) -> String? { headers.first(name: name) }
        var text: String { String(buffer: body) }
        var bytes: [UInt8] { Array(body.readableBytesView) }
    }

    /// Sends one request. A `POST` without a body still carries `Content-Length: 0`, as the validator's does.
    static func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        } else if method == .POST {
            request.body = .bytes(ByteBuffer())
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: collected)
    }
}
