/// An OAuth 2.0 `error` value as it travels on the wire (RFC 6749 §4.1.2.1 and §5.2, RFC 7009 §2.2.1).
///
/// The authorization server answers with these; the client maps them to its own errors with advice. Unknown
/// values are kept as they arrived.
public struct OAuthErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The wire name, such as `invalid_grant`.
    public let rawValue: String

    /// Wraps a wire name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `invalid_request`: a parameter is missing, repeated, or malformed.
    public static let invalidRequest = OAuthErrorCode(rawValue: "invalid_request")
    /// `invalid_client`: the client is unknown or its authentication failed.
    public static let invalidClient = OAuthErrorCode(rawValue: "invalid_client")
    /// `invalid_grant`: the code or refresh token is invalid, expired, revoked or was already used.
    public static let invalidGrant = OAuthErrorCode(rawValue: "invalid_grant")
    /// `unauthorized_client`: the client may not use this grant type.
    public static let unauthorizedClient = OAuthErrorCode(rawValue: "unauthorized_client")
    /// `unsupported_grant_type`: the server does not support this grant type.
    public static let unsupportedGrantType = OAuthErrorCode(rawValue: "unsupported_grant_type")
    /// `unsupported_response_type`: the server does not issue codes with this method.
    public static let unsupportedResponseType = OAuthErrorCode(rawValue: "unsupported_response_type")
    /// `unsupported_token_type`: the revocation endpoint does not revoke this kind of token (RFC 7009).
    public static let unsupportedTokenType = OAuthErrorCode(rawValue: "unsupported_token_type")
    /// `invalid_scope`: the requested scope is invalid, unknown or exceeds what was granted.
    public static let invalidScope = OAuthErrorCode(rawValue: "invalid_scope")
    /// `access_denied`: the user or the server declined the authorization request.
    public static let accessDenied = OAuthErrorCode(rawValue: "access_denied")
    /// `server_error`: the authorization server failed.
    public static let serverError = OAuthErrorCode(rawValue: "server_error")
    /// `temporarily_unavailable`: the authorization server is overloaded or in maintenance.
    public static let temporarilyUnavailable = OAuthErrorCode(rawValue: "temporarily_unavailable")

    /// Every code the RFCs register for the authorization and token endpoints.
    public static let registered: [OAuthErrorCode] = [
        .invalidRequest, .invalidClient, .invalidGrant, .unauthorizedClient, .unsupportedGrantType,
        .unsupportedResponseType, .unsupportedTokenType, .invalidScope, .accessDenied, .serverError,
        .temporarilyUnavailable,
    ]

    /// The wire name.
    public var description: String { rawValue }
}
