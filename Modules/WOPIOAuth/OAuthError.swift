import WOPIOAuthCore

/// An error from the OAuth 2.0 client: one the server reported (RFC 6749 §4.1.2.1 and §5.2) or one found on this side
/// (a forged redirect, a broken response, a network failure, a timeout).
///
/// Match on ``code``; the cases are open for additions, so always keep a `default` branch. The ``message`` says what
/// went wrong and what to do. Messages never contain tokens, codes or secrets.
public struct OAuthError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }
        private init(_ wireCode: OAuthErrorCode) { self.rawValue = wireCode.rawValue }

        // MARK: Reported by the server (RFC 6749)

        /// `invalid_request`: a parameter is missing, repeated, or malformed.
        public static let invalidRequest = Code(OAuthErrorCode.invalidRequest)
        /// `invalid_client`: the client is unknown or its authentication failed.
        public static let invalidClient = Code(OAuthErrorCode.invalidClient)
        /// `invalid_grant`: the code or refresh token is invalid, expired, revoked or was already used.
        public static let invalidGrant = Code(OAuthErrorCode.invalidGrant)
        /// `unauthorized_client`: the client may not use this grant type.
        public static let unauthorizedClient = Code(OAuthErrorCode.unauthorizedClient)
        /// `unsupported_grant_type`: the server does not support this grant type.
        public static let unsupportedGrantType = Code(OAuthErrorCode.unsupportedGrantType)
        /// `invalid_scope`: the requested scope is invalid, unknown or exceeds what was granted.
        public static let invalidScope = Code(OAuthErrorCode.invalidScope)
        /// `access_denied`: the user or the server declined the authorization request.
        public static let accessDenied = Code(OAuthErrorCode.accessDenied)
        /// `unsupported_response_type`: the server does not issue codes with this method.
        public static let unsupportedResponseType = Code(OAuthErrorCode.unsupportedResponseType)
        /// `server_error`: the authorization server failed.
        public static let serverError = Code(OAuthErrorCode.serverError)
        /// `temporarily_unavailable`: the authorization server is overloaded or in maintenance.
        public static let temporarilyUnavailable = Code(OAuthErrorCode.temporarilyUnavailable)
        /// The server reported an error code this client does not know; see ``OAuthError/serverErrorCode``.
        public static let unrecognizedServerError = Code("unrecognized_server_error")

        // MARK: Found by the client

        /// The redirect's `state` is missing or differs from the request's (a possible CSRF attack).
        public static let stateMismatch = Code("state_mismatch")
        /// The redirect's or the metadata's issuer differs from the expected one (a possible mix-up attack).
        public static let issuerMismatch = Code("issuer_mismatch")
        /// A response from the server is not what OAuth 2.0 requires (no code, bad JSON, unexpected status).
        public static let invalidResponse = Code("invalid_response")
        /// The request could not be sent or no response arrived.
        public static let transport = Code("transport")
        /// Waiting for the user to finish signing in took too long.
        public static let timeout = Code("timeout")
        /// The task waiting for the sign-in was cancelled.
        public static let cancelled = Code("cancelled")
        /// No browser could be opened.
        public static let userAgentFailed = Code("user_agent_failed")
        /// There are no usable tokens (never signed in, signed out, or the refresh token was rejected).
        public static let signInRequired = Code("sign_in_required")
        /// Tokens could not be read from or written to the token store.
        public static let storage = Code("storage")
        /// The client configuration or an argument is invalid.
        public static let invalidConfiguration = Code("invalid_configuration")

        /// The RFC 6749 error codes a server may send, by their wire names.
        static let serverCodes: [String: Code] = Dictionary(
            uniqueKeysWithValues: [
                invalidRequest, invalidClient, invalidGrant, unauthorizedClient, unsupportedGrantType, invalidScope,
                accessDenied, unsupportedResponseType, serverError, temporarilyUnavailable,
            ].map { ($0.rawValue, $0) })

        /// The code's wire-style name, such as `invalid_grant`.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The `error` value as the server sent it, for errors the server reported.
    public let serverErrorCode: String?
    /// The server's `error_description`, if it sent one (shown to people, never trusted as markup).
    public let serverDescription: String?
    /// The HTTP status of the response that carried the error, if any.
    public let httpStatus: Int?
    /// The lower-level error behind this one, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, serverErrorCode: String? = nil, serverDescription: String? = nil,
        httpStatus: Int? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.serverErrorCode = serverErrorCode
        self.serverDescription = serverDescription
        self.httpStatus = httpStatus
        self.underlying = underlying
    }

    /// Whether the user must sign in again (the grant is gone) rather than retry later.
    public var requiresSignIn: Bool { code == .signInRequired || code == .invalidGrant }

    /// The code, the message, the server's description and the underlying error, for logs.
    public var description: String {
        var text = "OAuthError.\(code): \(message)"
        if let serverDescription { text += " Server said: \(serverDescription)" }
        if let underlying { text += " (underlying: \(underlying))" }
        return text
    }

    /// Maps an RFC 6749 `error` response to an error whose message says what to do.
    ///
    /// - Parameters:
    ///   - error: The `error` parameter.
    ///   - description: The `error_description` parameter.
    ///   - httpStatus: The status of the token endpoint's response; `nil` for an authorization redirect.
    static func server(error: String, description: String?, httpStatus: Int?) -> OAuthError {
        let code = Code.serverCodes[error] ?? .unrecognizedServerError
        let advice: String
        switch code {
        case .invalidRequest:
            advice = "The server rejected the request as malformed; check the client configuration and parameters."
        case .invalidClient:
            advice = "The server did not accept the client ID or secret; check them against the registration."
        case .invalidGrant:
            advice =
                "The authorization code or refresh token was rejected (expired, revoked or already used); "
                + "sign in again."
        case .unauthorizedClient:
            advice = "This client is not allowed to use this grant type; check the client registration."
        case .unsupportedGrantType:
            advice = "The server does not support this grant type; check that it supports the authorization code flow."
        case .invalidScope:
            advice = "The requested scope is invalid or not granted; check the configured scopes."
        case .accessDenied:
            advice = "The sign-in was declined; sign in again and approve the access."
        case .unsupportedResponseType:
            advice = "The server does not issue authorization codes to this client; check the client registration."
        case .serverError:
            advice = "The authorization server failed; try again later."
        case .temporarilyUnavailable:
            advice = "The authorization server is temporarily unavailable; try again later."
        default:
            advice = "The server reported the OAuth error '\(error)'; see its description and documentation."
        }
        return OAuthError(
            code, advice, serverErrorCode: error, serverDescription: description, httpStatus: httpStatus)
    }
}
