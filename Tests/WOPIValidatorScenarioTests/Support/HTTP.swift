import Foundation
import NIOCore
import NIOHTTP1
import WOPITestSupport

/// ``TestHTTP`` shaped like the validator's requests: ordered headers and raw bodies.
enum HTTP {
    typealias Reply = TestHTTP.Reply

    /// Sends one request. A `POST` without a body still carries `Content-Length: 0`, as the validator's does.
    static func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> Reply {
        let buffer = body.map { ByteBuffer(bytes: $0) } ?? (method == .POST ? ByteBuffer() : nil)
        return try await TestHTTP.send(method, url, headers: headers, body: buffer)
    }
}
