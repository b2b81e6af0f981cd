import Foundation
public import HTTPTypes
public import NIOCore
public import WOPIFoundation
import WOPIModels

/// A response from the WOPI host, independent of any web framework.
public struct WOPIResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// No body.
        case empty
        /// A small body already in memory (JSON, HTML, errors).
        case buffer(ByteBuffer)
        /// A streamed body (file content); `knownLength` becomes `Content-Length`.
        case stream(ByteStream)
    }

    /// The status.
    public var status: HTTPResponse.Status
    /// The headers. A header with an empty value is meaningful in WOPI (`X-WOPI-Lock:` means unlocked) and
    /// adapters must send it.
    public var headers: HTTPFields
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`application/json; charset=utf-8`), byte for byte what `WOPIJSON.encoder` writes.
    public static func json<Value: Encodable>(
        _ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> WOPIResponse {
        // The direct writer makes the same bytes without JSONEncoder's tree (CheckFileInfo on every open, listings);
        // a value it does not write (a float, a date) goes to JSONEncoder, which also reports the value's own errors.
        let body: ByteBuffer
        do {
            body = try DirectJSONWriter.buffer(of: value)
        } catch {
            body = ByteBuffer(bytes: try WOPIJSON.encoder.encode(value))
        }
        return .json(body: .buffer(body), status: status, headers: headers)
    }

    /// A response whose `body` is JSON made by its caller (a listing streamed in pieces).
    package static func json(body: Body, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> WOPIResponse {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return WOPIResponse(status: status, headers: headers, body: body)
    }

    /// Sets a header by name.
    public mutating func setHeader(_ name: String, _ value: String) {
        guard let fieldName = HTTPField.Name(name) else { return }
        headers[fieldName] = value
    }

    /// The value of a header by name.
    public func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }
}
