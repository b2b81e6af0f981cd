public import Foundation
public import WOPIOAuthCore

/// What a client needs to know about itself and its authorization server.
///
/// Build it by hand, from a WOPI bootstrapper's `WWW-Authenticate` challenge (`authorization_uri`,
/// `tokenIssuance_uri`), or from RFC 8414 metadata with ``init(metadata:clientID:clientAuthentication:scopes:)``.
public struct OAuthClientConfiguration: Sendable, Hashable {
    /// The registered client ID.
    public var clientID: String
    /// How the client authenticates to the token endpoint; ``ClientAuthentication/none`` for a native app.
    public var clientAuthentication: ClientAuthentication
    /// The authorization endpoint (RFC 6749 §3.1); it may already carry query parameters, which are kept.
    public var authorizationEndpoint: URL
    /// The token endpoint (RFC 6749 §3.2).
    public var tokenEndpoint: URL
    /// The scopes to request; empty leaves `scope` out so the server applies its default.
    public var scopes: [String]
    /// The server's issuer identifier, when known; a redirect whose `iss` differs is rejected (RFC 9207).
    public var issuer: String?
    /// Whether the redirect must carry `iss` (the server advertised `authorization_response_iss_parameter_supported`).
    public var requiresIssuerParameter: Bool
    /// Extra parameters for the authorize URL, in order (for example Office's `rs`, `build`, `platform`).
    public var additionalAuthorizationParameters: [AuthorizationRequest.Parameter]

    /// Creates a configuration.
    public init(
        clientID: String, clientAuthentication: ClientAuthentication = .none, authorizationEndpoint: URL,
        tokenEndpoint: URL, scopes: [String] = [], issuer: String? = nil, requiresIssuerParameter: Bool = false,
        additionalAuthorizationParameters: [AuthorizationRequest.Parameter] = []
    ) {
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.scopes = scopes
        self.issuer = issuer
        self.requiresIssuerParameter = requiresIssuerParameter
        self.additionalAuthorizationParameters = additionalAuthorizationParameters
    }

    /// Creates a configuration from RFC 8414 metadata, taking the endpoints, the issuer and whether `iss` is sent.
    ///
    /// - Throws: ``OAuthError/Code/invalidConfiguration`` when the metadata lacks an endpoint the code flow needs or
    ///   does not offer PKCE `S256`.
    public init(
        metadata: AuthorizationServerMetadata, clientID: String, clientAuthentication: ClientAuthentication = .none,
        scopes: [String] = []
    ) throws(OAuthError) {
        guard let authorizationEndpoint = metadata.authorizationEndpoint, let tokenEndpoint = metadata.tokenEndpoint
        else {
            throw OAuthError(
                .invalidConfiguration,
                "The metadata of \(metadata.issuer) has no authorization or token endpoint; configure them by hand.")
        }
        if let methods = metadata.codeChallengeMethodsSupported, !methods.contains(PKCE.method) {
            throw OAuthError(
                .invalidConfiguration,
                "The server \(metadata.issuer) does not offer PKCE S256 (it lists \(methods)); ask its operator to "
                    + "enable it, since native apps must use PKCE.")
        }
        self.init(
            clientID: clientID, clientAuthentication: clientAuthentication,
            authorizationEndpoint: authorizationEndpoint, tokenEndpoint: tokenEndpoint, scopes: scopes,
            issuer: metadata.issuer,
            requiresIssuerParameter: metadata.authorizationResponseIssParameterSupported ?? false)
    }
}
