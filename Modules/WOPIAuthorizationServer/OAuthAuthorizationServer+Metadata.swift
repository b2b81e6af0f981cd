import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

extension OAuthAuthorizationServer {
    /// The authorization server metadata (RFC 8414 §2) for the issuer that `request` addressed.
    func metadata(for request: WOPIRequest) -> AuthorizationServerMetadata {
        let issuer = issuer(for: request)
        let clientAuthentication = ["client_secret_basic", "client_secret_post", "none"]
        return AuthorizationServerMetadata(
            issuer: issuer, authorizationEndpoint: URL(string: issuer + configuration.authorizationPath),
            tokenEndpoint: URL(string: issuer + configuration.tokenPath),
            revocationEndpoint: URL(string: issuer + configuration.revocationPath),
            scopesSupported: configuration.grantableScopes.sorted(), responseTypesSupported: ["code"],
            grantTypesSupported: configuration.issuesRefreshTokens
                ? ["authorization_code", "refresh_token"] : ["authorization_code"],
            codeChallengeMethodsSupported: [PKCES256.method], tokenEndpointAuthMethodsSupported: clientAuthentication,
            authorizationResponseIssParameterSupported: true, responseModesSupported: ["query"],
            revocationEndpointAuthMethodsSupported: clientAuthentication,
            policyURL: configuration.privacyStatementURL.flatMap(URL.init(string:)))
    }

    /// `GET /.well-known/oauth-authorization-server`.
    func metadata(_ request: WOPIRequest) throws -> WOPIResponse {
        var headers = HTTPFields()
        headers[.cacheControl] = "max-age=3600"
        return try .json(metadata(for: request), headers: headers)
    }
}
