public import Foundation

/// The checked result of an authorization redirect (RFC 6749 §4.1.2): the code and any extras.
///
/// Create it with ``parse(redirectURL:expecting:)``, which rejects a forged or mixed-up redirect before anything
/// else is read from it.
public struct AuthorizationResponse: Sendable, Hashable {
    /// What a redirect must carry to be accepted.
    public struct Expectation: Sendable, Hashable {
        /// The `state` sent with the request.
        public var state: String
        /// The issuer the redirect's `iss` must equal when present (RFC 9207), if known.
        public var issuer: String?
        /// Whether `iss` must be present (the server advertised that it sends it).
        public var issuerRequired: Bool

        /// Creates an expectation.
        public init(state: String, issuer: String? = nil, issuerRequired: Bool = false) {
            self.state = state
            self.issuer = issuer
            self.issuerRequired = issuerRequired
        }
    }

    /// The authorization code, to redeem once at the token endpoint.
    public let code: String
    /// The `state` echoed by the server (equal to the expected one).
    public let state: String
    /// The `iss` the server sent, if any.
    public let issuer: String?
    /// Office's `tk`: a token endpoint that replaces the configured one for this code and its refreshes.
    public let tokenEndpoint: URL?
    /// Office's `sc`: an opaque session context, sent back as `X-WOPI-SessionContext` on token calls.
    public let sessionContext: String?
    /// All parameters of the redirect.
    public let parameters: [String: String]

    /// Parses and checks a redirect URL.
    ///
    /// Checks, in order: the `state` (missing or different → ``OAuthError/Code/stateMismatch``), the `iss`
    /// (different, or missing when required → ``OAuthError/Code/issuerMismatch``), then an `error` parameter (mapped
    /// to its RFC 6749 code), then the `code`.
    ///
    /// - Parameters:
    ///   - redirectURL: The URL the browser or the system handed back.
    ///   - expecting: The request's state and the expected issuer, from ``AuthorizationRequest/expectation``.
    public static func parse(redirectURL: URL, expecting: Expectation) throws(OAuthError) -> AuthorizationResponse {
        try parse(redirect: RedirectURL(redirectURL), expecting: expecting)
    }

    /// Checks an already parsed redirect; see ``parse(redirectURL:expecting:)``.
    public static func parse(redirect: RedirectURL, expecting: Expectation) throws(OAuthError)
        -> AuthorizationResponse
    {
        guard let state = redirect["state"] else {
            throw OAuthError(
                .stateMismatch,
                "The redirect carries no state, so it cannot be tied to this sign-in and was rejected; "
                    + "start the sign-in again.")
        }
        guard constantTimeEquals(state, expecting.state) else {
            throw OAuthError(
                .stateMismatch,
                "The redirect's state does not match this sign-in (a stale tab or a forged redirect) and was "
                    + "rejected; start the sign-in again.")
        }
        let issuer = redirect["iss"]
        if let expected = expecting.issuer {
            if let issuer, issuer != expected {
                throw OAuthError(
                    .issuerMismatch,
                    "The redirect comes from issuer '\(issuer)' but '\(expected)' was expected (a possible mix-up "
                        + "attack); it was rejected. Start the sign-in again and check the server configuration.")
            }
            if issuer == nil && expecting.issuerRequired {
                throw OAuthError(
                    .issuerMismatch,
                    "The server advertises the iss parameter but the redirect has none; it was rejected. Start the "
                        + "sign-in again.")
            }
        }
        if let error = redirect["error"] {
            throw OAuthError.server(error: error, description: redirect["error_description"], httpStatus: nil)
        }
        guard let code = redirect["code"], !code.isEmpty else {
            throw OAuthError(
                .invalidResponse, "The redirect has neither a code nor an error; start the sign-in again.")
        }
        var tokenEndpoint: URL?
        if let tk = redirect["tk"] {
            guard let url = URL(string: tk), ["https", "http"].contains(url.scheme?.lowercased()), url.host != nil
            else {
                throw OAuthError(
                    .invalidResponse, "The redirect's tk parameter is not an http(s) URL; check the server.")
            }
            tokenEndpoint = url
        }
        return AuthorizationResponse(
            code: code, state: state, issuer: issuer, tokenEndpoint: tokenEndpoint,
            sessionContext: redirect["sc"], parameters: redirect.parameters)
    }

    /// Compares two strings in time that depends only on their lengths.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension AuthorizationResponse: CustomStringConvertible {
    /// Names the extras only; the code is a secret.
    public var description: String {
        "AuthorizationResponse(issuer: \(issuer ?? "none"), tk: \(tokenEndpoint?.absoluteString ?? "none"), "
            + "sc: \(sessionContext == nil ? "none" : "present"))"
    }
}
