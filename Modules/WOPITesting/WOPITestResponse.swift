public import Foundation
public import HTTPTypes
public import NIOCore

/// A whole answer from an in-process request: status, header fields and the collected body.
public struct WOPITestResponse: Sendable {
    /// The status line and header fields.
    public let head: HTTPResponse
    /// The body, collected whole (empty when there is none).
    public let body: ByteBuffer

    /// The status.
    public var status: HTTPResponse.Status { head.status }
    /// The header fields, as the endpoint set them.
    public var headers: HTTPFields { head.headerFields }
    /// The body as UTF-8 text.
    public var text: String { String(buffer: body) }
    /// The body's bytes.
    public var bytes: [UInt8] { Array(body.readableBytesView) }

    /// The value of the header field `name`, `nil` when absent (several values are joined with `, `).
    public subscript(_ name: HTTPField.Name) -> String? { head.headerFields[name] }

    /// The body decoded from JSON as `type`, with `decoder` (WOPI's JSON is PascalCase: pass
    /// `WOPIJSON.decoder` for WOPI bodies).
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(body.readableBytesView))
    }
}
