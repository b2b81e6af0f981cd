public import HTTPTypes
import NIOCore
import WOPIModels

/// An error that answers a WOPI request with a given status and headers.
///
/// Operations throw it; the host turns it into the response. The ``message`` goes to the log and into
/// `X-WOPI-ServerError` (never put secrets in it).
public struct WOPIHTTPError: HTTPResponseError, CustomStringConvertible {
    /// The status to answer with.
    public var status: HTTPResponse.Status
    /// Headers to send (for example `X-WOPI-Lock` on a lock conflict).
    public var headers: HTTPFields
    /// What went wrong, for logs and `X-WOPI-ServerError`.
    public var message: String
    /// A JSON body a client expects with this error (for example Collabora's `{"COOLStatusCode": 1010}`); `nil`
    /// sends ``message`` as text.
    public var jsonBody: String? = nil

    /// Creates an error response.
    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(status.reasonPhrase): \(message)" }

    /// `400`: the request is malformed.
    public static func badRequest(_ message: String) -> WOPIHTTPError { WOPIHTTPError(.badRequest, message) }
    /// `401`: the access token is missing, malformed, tampered with or expired.
    public static func unauthorized(_ message: String) -> WOPIHTTPError { WOPIHTTPError(.unauthorized, message) }
    /// `404`: the resource does not exist, or the caller may not see it.
    public static func notFound(_ message: String) -> WOPIHTTPError { WOPIHTTPError(.notFound, message) }
    /// `501`: the operation is not implemented.
    public static func notImplemented(_ message: String) -> WOPIHTTPError { WOPIHTTPError(.notImplemented, message) }

    /// `409` with `X-WOPI-Lock` set to the current lock (empty when unlocked), as every lock mismatch requires.
    public static func lockConflict(current: String?, reason: String) -> WOPIHTTPError {
        var error = WOPIHTTPError(.conflict, reason)
        error.headers[.wopiLock] = current ?? ""
        error.headers[.wopiLockFailureReason] = reason
        return error
    }

    /// The response for this error.
    public var response: WOPIResponse {
        var headers = headers
        headers[.wopiServerError] = String(
            message.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 }.prefix(500).map(Character.init))
        if let jsonBody {
            headers[.contentType] = "application/json; charset=utf-8"
            return WOPIResponse(status: status, headers: headers, body: .buffer(ByteBuffer(string: jsonBody)))
        }
        headers[.contentType] = "text/plain; charset=utf-8"
        return WOPIResponse(status: status, headers: headers, body: .buffer(ByteBuffer(string: message + "\n")))
    }
}
