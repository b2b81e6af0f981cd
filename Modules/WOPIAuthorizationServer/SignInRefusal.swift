import Foundation
import HTTPTypes
import WOPIOAuthCore

/// Why a sign-in or client authentication was refused before its password was checked: the same answer whether
/// or not the account exists.
package enum SignInRefusal: Error, Sendable, Equatable {
    /// Too many recent failures for the account, client or address; try again after `retryAfter` seconds.
    case throttled(retryAfter: Int)
    /// Too many password hashes run and wait already.
    case busy

    /// How long the client should wait, for `Retry-After`.
    package var retryAfter: Int {
        switch self {
        case .throttled(let seconds): max(1, seconds)
        case .busy: 5
        }
    }

    /// 429 for a lock-out, 503 when the server is busy.
    package var status: HTTPResponse.Status {
        switch self {
        case .throttled: .tooManyRequests
        case .busy: .serviceUnavailable
        }
    }

    /// What the sign-in page says.
    package var message: String {
        switch self {
        case .throttled: "Too many attempts. Try again in \(retryAfter) s."
        case .busy: "The server is busy signing other people in. Try again in \(retryAfter) s."
        }
    }

    /// The token endpoint's JSON error: `temporarily_unavailable` with the status and `Retry-After`.
    var oauthError: OAuthProtocolError {
        var error = OAuthProtocolError(.temporarilyUnavailable, message, status: status)
        error.headers[.retryAfter] = String(retryAfter)
        return error
    }
}
