import Foundation
import HTTPTypes

extension OAuthAuthorizationServer {
    /// The authorization server metadata (RFC 8414 §2).
    struct Metadata: Encodable {
        let issuer: String
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let revocationEndpoint: String
        let responseTypesSupported = ["code"]
        let responseModesSupported = ["query"]
        let grantTypesSupported: [String]
        let tokenEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "none"]
        let revocationEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "none"]
        let codeChallengeMethodsSupported = ["S256"]
        let authorizationResponseIssParameterSupported = true
        let scopesSupported: [String]?
        let opPolicyURI: String?

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case revocationEndpoint = "revocation_endpoint"
            case responseTypesSupported = "response_types_supported"
            case responseModesSupported = "response_modes_supported"
            case grantTypesSupported = "grant_types_supported"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
            case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
            case codeChallengeMethodsSupported = "code_challenge_methods_supported"
            case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
            case scopesSupported = "scopes_supported"
            case opPolicyURI = "op_policy_uri"
        }
    }

    /// `GET /.well-known/oauth-authorization-server`.
    func metadata(_ request: WOPIRequest) throws -> WOPIResponse {
        let issuer = issuer(for: request)
        let metadata = Metadata(
            issuer: issuer, authorizationEndpoint: issuer + configuration.authorizationPath,
            tokenEndpoint: issuer + configuration.tokenPath, revocationEndpoint: issuer + configuration.revocationPath,
            grantTypesSupported: configuration.issuesRefreshTokens
                ? ["authorization_code", "refresh_token"] : ["authorization_code"],
            scopesSupported: configuration.supportedScopes.map { $0.sorted() },
            opPolicyURI: configuration.privacyStatementURL)
        var headers = HTTPFields()
        headers[.cacheControl] = "max-age=3600"
        return try .json(metadata, headers: headers)
    }
}
