public import Foundation

/// OAuth 2.0 authorization server metadata (RFC 8414 §2): what `/.well-known/oauth-authorization-server` serves.
///
/// The one model of the document for both sides: `WOPIAuthorizationServer` encodes it, and the `WOPIOAuth` client
/// fetches it (`AuthorizationServerMetadata.discover(issuer:transport:)`) and turns it into a client configuration.
/// Members that are `nil` are left out of the JSON.
public struct AuthorizationServerMetadata: Sendable, Hashable, Codable {
    /// The issuer identifier: an https URL without query or fragment.
    public var issuer: String
    /// The authorization endpoint.
    public var authorizationEndpoint: URL?
    /// The token endpoint.
    public var tokenEndpoint: URL?
    /// The revocation endpoint (RFC 7009), if any.
    public var revocationEndpoint: URL?
    /// The scopes the server offers.
    public var scopesSupported: [String]?
    /// The response types the server offers (`code` for this client).
    public var responseTypesSupported: [String]?
    /// The grant types the server offers.
    public var grantTypesSupported: [String]?
    /// The PKCE methods the server offers; `S256` is required by this client.
    public var codeChallengeMethodsSupported: [String]?
    /// The client authentication methods of the token endpoint.
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// Whether the server sends `iss` on authorization responses (RFC 9207).
    public var authorizationResponseIssParameterSupported: Bool?
    /// The response modes the server offers (`query` here).
    public var responseModesSupported: [String]?
    /// The client authentication methods of the revocation endpoint.
    public var revocationEndpointAuthMethodsSupported: [String]?
    /// The URL of the server's privacy policy (`op_policy_uri`).
    public var policyURL: URL?

    /// Creates metadata.
    public init(
        issuer: String, authorizationEndpoint: URL? = nil, tokenEndpoint: URL? = nil, revocationEndpoint: URL? = nil,
        scopesSupported: [String]? = nil, responseTypesSupported: [String]? = nil, grantTypesSupported: [String]? = nil,
        codeChallengeMethodsSupported: [String]? = nil, tokenEndpointAuthMethodsSupported: [String]? = nil,
        authorizationResponseIssParameterSupported: Bool? = nil, responseModesSupported: [String]? = nil,
        revocationEndpointAuthMethodsSupported: [String]? = nil, policyURL: URL? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.scopesSupported = scopesSupported
        self.responseTypesSupported = responseTypesSupported
        self.grantTypesSupported = grantTypesSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        self.responseModesSupported = responseModesSupported
        self.revocationEndpointAuthMethodsSupported = revocationEndpointAuthMethodsSupported
        self.policyURL = policyURL
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case scopesSupported = "scopes_supported"
        case responseTypesSupported = "response_types_supported"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case responseModesSupported = "response_modes_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case policyURL = "op_policy_uri"
    }
}
