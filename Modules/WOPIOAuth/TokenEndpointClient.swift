public import Foundation
public import Logging
import WOPIModels

/// Talks to the token endpoint: redeems authorization codes (RFC 6749 §4.1.3 with the PKCE verifier) and refreshes
/// tokens (RFC 6749 §6), mapping §5.2 error responses to ``OAuthError``.
///
/// It keeps no state; ``OAuthSession`` adds single-flight refresh and storage on top.
public struct TokenEndpointClient: Sendable {
    /// The client and server.
    public let configuration: OAuthClientConfiguration
    /// The HTTP transport.
    public let transport: any OAuthHTTPTransport
    /// Where requests are logged (never with tokens or codes).
    public let logger: Logger
    private let now: @Sendable () -> Date

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: The client and server.
    ///   - transport: The HTTP transport; by default an ephemeral `URLSession`.
    ///   - logger: The logger.
    ///   - now: The clock used to turn `expires_in` into an expiry date.
    public init(
        configuration: OAuthClientConfiguration, transport: any OAuthHTTPTransport = AsyncHTTPClientOAuthTransport(),
        logger: Logger = Logger(label: "WOPIOAuth"), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        self.now = now
    }

    /// Redeems the code of a checked redirect, at the redirect's `tk` endpoint if it named one.
    ///
    /// - Parameters:
    ///   - response: The checked redirect.
    ///   - request: The request it answers, for the redirect URI and the PKCE verifier.
    public func exchange(_ response: AuthorizationResponse, for request: AuthorizationRequest) async throws(OAuthError)
        -> TokenSet
    {
        try await exchange(
            code: response.code, redirectURI: request.redirectURI, codeVerifier: request.pkce.verifier,
            tokenEndpoint: response.tokenEndpoint, sessionContext: response.sessionContext)
    }

    /// Redeems an authorization code.
    ///
    /// - Parameters:
    ///   - code: The authorization code.
    ///   - redirectURI: The redirect URI sent in the authorization request.
    ///   - codeVerifier: The PKCE verifier of that request.
    ///   - tokenEndpoint: An endpoint replacing the configured one (Office's `tk`); kept in the token set.
    ///   - sessionContext: Office's `sc`, sent as `X-WOPI-SessionContext` and kept in the token set.
    public func exchange(
        code: String, redirectURI: URL, codeVerifier: String, tokenEndpoint: URL? = nil, sessionContext: String? = nil
    ) async throws(OAuthError) -> TokenSet {
        let form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
            ("code_verifier", codeVerifier),
        ]
        let issuedAt = now()
        let response = try await post(form, to: tokenEndpoint ?? configuration.tokenEndpoint, context: sessionContext)
        return try decodeTokens(
            response, issuedAt: issuedAt, previous: nil, tokenEndpoint: tokenEndpoint, sessionContext: sessionContext)
    }

    /// Refreshes a token set with its refresh token; the result keeps the old refresh token if the server did not
    /// rotate it.
    ///
    /// - Parameters:
    ///   - tokens: The current tokens.
    ///   - scopes: A narrower scope to request; `nil` keeps the granted one.
    /// - Throws: ``OAuthError/Code/signInRequired`` if there is no refresh token; the server's error otherwise
    ///   (``OAuthError/Code/invalidGrant`` when the refresh token is no longer valid).
    public func refresh(_ tokens: TokenSet, scopes: [String]? = nil) async throws(OAuthError) -> TokenSet {
        guard let refreshToken = tokens.refreshToken else {
            throw OAuthError(.signInRequired, "The access token expired and there is no refresh token; sign in again.")
        }
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scopes, !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let issuedAt = now()
        let response = try await post(
            form, to: tokens.tokenEndpoint ?? configuration.tokenEndpoint, context: tokens.sessionContext)
        return try decodeTokens(
            response, issuedAt: issuedAt, previous: tokens, tokenEndpoint: tokens.tokenEndpoint,
            sessionContext: tokens.sessionContext)
    }

    private func post(_ form: [(String, String)], to endpoint: URL, context: String?) async throws(OAuthError)
        -> OAuthHTTPResponse
    {
        var form = form
        var headers = [
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
        ]
        configuration.clientAuthentication.apply(clientID: configuration.clientID, form: &form, headers: &headers)
        if let context { headers["X-WOPI-SessionContext"] = context }
        let grantType = form.first { $0.0 == "grant_type" }?.1 ?? "?"
        logger.debug(
            "Token request",
            metadata: [
                "endpoint": "\(endpoint.absoluteString)", "grant_type": "\(grantType)",
                "client_auth": "\(configuration.clientAuthentication.methodName)",
            ])
        let request = OAuthHTTPRequest(
            method: "POST", url: endpoint, headers: headers, body: Data(PercentEncoding.encodePairs(form).utf8))
        return try await transport.perform(request)
    }

    private func decodeTokens(
        _ response: OAuthHTTPResponse, issuedAt: Date, previous: TokenSet?, tokenEndpoint: URL?,
        sessionContext: String?
    ) throws(OAuthError) -> TokenSet {
        guard (200..<300).contains(response.status) else {
            if let error = try? JSONDecoder().decode(TokenErrorResponse.self, from: response.body) {
                logger.info(
                    "Token endpoint error", metadata: ["status": "\(response.status)", "error": "\(error.error)"])
                throw OAuthError.server(
                    error: error.error, description: error.errorDescription, httpStatus: response.status)
            }
            let advice =
                response.status >= 500
                ? "the server failed; try again later" : "check the token endpoint URL and the client registration"
            throw OAuthError(
                .invalidResponse,
                "The token endpoint answered HTTP \(response.status) without an OAuth error; \(advice).",
                httpStatus: response.status)
        }
        do {
            let tokens = try JSONDecoder().decode(TokenResponse.self, from: response.body)
            for ignored in tokens.ignored {
                logger.warning("The token endpoint's answer: an optional member is ignored: \(ignored)")
            }
            return tokens.tokenSet(
                issuedAt: issuedAt, previous: previous, tokenEndpoint: tokenEndpoint, sessionContext: sessionContext)
        } catch {
            throw OAuthError(
                .invalidResponse,
                "The token endpoint's answer is not a valid token response (it needs JSON with access_token); "
                    + "check the token endpoint URL.",
                httpStatus: response.status, underlying: error)
        }
    }
}
