import Foundation
public import NIOCore
public import NIOHTTP1

/// ``TestHTTP`` with the shorthands the host tests use: headers as a dictionary, bodies as text.
public enum HTTP {
    public typealias Reply = TestHTTP.Reply

    public static func send(
        _ method: HTTPMethod, _ url: String, headers: [String: String] = [:], body: String? = nil,
        bodyBuffer: ByteBuffer? = nil
    ) async throws -> Reply {
        try await TestHTTP.send(
            method, url, headers: headers.map { ($0.key, $0.value) }, body: bodyBuffer ?? body.map(ByteBuffer.init))
    }

    public static func get(_ url: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.GET, url, headers: headers)
    }

    public static func post(_ url: String, _ headers: [String: String], body: String? = nil) async throws -> Reply {
        try await send(.POST, url, headers: headers, body: body)
    }
}
