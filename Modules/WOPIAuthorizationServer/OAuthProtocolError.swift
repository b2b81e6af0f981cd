import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

/// An OAuth 2.0 error response (RFC 6749 §4.1.2.1 and §5.2): an `error` code, a description, and the HTTP status
/// the token endpoint answers with.
struct OAuthProtocolError: HTTPResponseError, CustomStringConvertible {
    var code: OAuthErrorCode
    /// A human-readable `error_description`: ASCII, no secrets.
    var message: String
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]

    init(_ code: OAuthErrorCode, _ message: String, status: HTTPResponse.Status = .badRequest) {
        self.code = code
        self.message = message
        self.status = status
    }

    var description: String { "\(code): \(message)" }

    /// None: an OAuth error keeps OAuth's JSON wherever it is answered, the authorization page included.
    var pageMessage: ErrorPageMessage? { nil }

    /// `invalid_client`; with `basicChallenge`, a `401` with `WWW-Authenticate: Basic` (RFC 6749 §5.2).
    static func invalidClient(_ message: String, basicChallenge: Bool) -> OAuthProtocolError {
        guard basicChallenge else { return OAuthProtocolError(.invalidClient, message) }
        var error = OAuthProtocolError(.invalidClient, message, status: .unauthorized)
        error.headers[.wwwAuthenticate] = "Basic realm=\"oauth\", charset=\"UTF-8\""
        return error
    }

    static func invalidGrant(_ message: String) -> OAuthProtocolError { OAuthProtocolError(.invalidGrant, message) }
    static func invalidRequest(_ message: String) -> OAuthProtocolError { OAuthProtocolError(.invalidRequest, message) }

    /// The JSON error response of the token and revocation endpoints.
    var response: WOPIResponse {
        var response =
            (try? WOPIResponse.json(["error": code.rawValue, "error_description": message], status: status))
            ?? WOPIResponse(status: status)
        for field in headers { response.headers.append(field) }
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }
}
