import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A tiny HTTP client for tests, over AsyncHTTPClient; answers keep headers as sent (empty values included).
enum HTTP {
    struct Reply: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer

        func header(_ name: String) -> String? { headers.first(name: name) }
        var text: String { String(buffer: body) }
        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] ?? [:]
        }
    }

    static func send(
        _ method: HTTPMethod, _ url: String, headers: [String: String] = [:], body: String? = nil,
        bodyBuffer: ByteBuffer? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        if let bodyBuffer { request.body = .bytes(bodyBuffer) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: collected)
    }

    static func get(_ url: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.GET, url, headers: headers)
    }

    static func post(_ url: String, _ headers: [String: String], body: String? = nil) async throws -> Reply {
        try await send(.POST, url, headers: headers, body: body)
    }
}
