import Foundation
public import HTTPTypes
public import WOPIHTTPEdge
import WOPIOAuthCore

/// Why a sign-in or client authentication was refused before its password was checked: the same answer whether
/// or not the account exists.
///
/// ``OAuthAuthorizationServer/authenticate(_:password:request:)`` throws it; a sign-in page shows ``message`` with
/// ``status`` and sends ``retryAfter`` as `Retry-After`.
public enum SignInRefusal: HTTPResponseError, Equatable {
    /// Too many recent failures for the account, client or address; try again after `retryAfter` seconds.
    case throttled(retryAfter: Int)
    /// Too many password hashes run and wait already.
    case busy

    /// How long the client should wait, for `Retry-After`.
    public var retryAfter: Int {
        switch self {
        case .throttled(let seconds): max(1, seconds)
        case .busy: 5
        }
    }

    /// 429 for a lock-out, 503 when the server is busy.
    public var status: HTTPResponse.Status {
        switch self {
        case .throttled: .tooManyRequests
        case .busy: .serviceUnavailable
        }
    }

    /// What the sign-in page says.
    public var message: String {
        switch self {
        case .throttled: "Too many attempts. Try again in \(retryAfter) s."
        case .busy: "The server is busy signing other people in. Try again in \(retryAfter) s."
        }
    }

    /// The token endpoint's answer: ``oauthError``'s JSON.
    public var response: WOPIResponse { oauthError.response }

    /// What a sign-in page says: "Cannot sign in" and ``message``.
    public var pageMessage: ErrorPageMessage? { ErrorPageMessage(title: "Cannot sign in", message) }

    /// The token endpoint's JSON error: `temporarily_unavailable` with the status and `Retry-After`.
    var oauthError: OAuthProtocolError {
        var error = OAuthProtocolError(.temporarilyUnavailable, message, status: status)
        error.headers[.retryAfter] = String(retryAfter)
        return error
    }
}
