public import Foundation

/// The tokens of one grant, as the client keeps and stores them.
///
/// `Codable` for a ``TokenStore``; its `description` never shows a token.
public struct TokenSet: Sendable, Hashable, Codable {
    /// The access token, sent as `Authorization: Bearer …`.
    public var accessToken: String
    /// The token type, normally `Bearer`.
    public var tokenType: String
    /// The refresh token, if the server issued one.
    public var refreshToken: String?
    /// When the access token expires; `nil` if the server gave no lifetime (or `0`, "never expires").
    public var expiresAt: Date?
    /// The granted scope, space-separated, if known.
    public var scope: String?
    /// The OpenID Connect ID token, if the server sent one.
    public var idToken: String?
    /// The token endpoint to refresh at, when it differs from the configured one (Office's `tk`).
    public var tokenEndpoint: URL?
    /// Office's session context (`sc`), sent as `X-WOPI-SessionContext` on token calls.
    public var sessionContext: String?

    /// Creates a token set.
    public init(
        accessToken: String, tokenType: String = "Bearer", refreshToken: String? = nil, expiresAt: Date? = nil,
        scope: String? = nil, idToken: String? = nil, tokenEndpoint: URL? = nil, sessionContext: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.idToken = idToken
        self.tokenEndpoint = tokenEndpoint
        self.sessionContext = sessionContext
    }

    /// Whether the access token has expired, or will within `leeway`, at `date`. Never true without an expiry.
    public func isExpired(at date: Date = Date(), leeway: Duration = .zero) -> Bool {
        guard let expiresAt else { return false }
        let seconds = Double(leeway.components.seconds) + Double(leeway.components.attoseconds) / 1e18
        return date.addingTimeInterval(seconds) >= expiresAt
    }

    /// The value for an `Authorization` header: `Bearer <access token>`.
    public var authorizationHeaderValue: String { "Bearer \(accessToken)" }
}

extension TokenSet: CustomStringConvertible {
    /// Describes the set without any token.
    public var description: String {
        "TokenSet(type: \(tokenType), refreshable: \(refreshToken != nil), "
            + "expiresAt: \(expiresAt.map { "\($0)" } ?? "never"), scope: \(scope ?? "default"))"
    }
}
