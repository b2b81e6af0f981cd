import Foundation
import WOPIModels
import WOPIOAuthCore

/// A validated authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636 §4.3), from the query of the GET or
/// the hidden fields of the sign-in form's POST.
struct AuthorizationRequest: Sendable {
    /// Why a request was refused.
    enum Failure: Error, Sendable {
        /// The client or redirect URI cannot be trusted: show an error page, never redirect (RFC 6749 §4.1.2.1).
        case page(String)
        /// The redirect URI is valid: send the error there.
        case redirect(OAuthProtocolError, to: String, state: String?)
    }

    /// The parameters carried from the page to the form and covered by the form token, in a fixed order.
    static let carriedNames = [
        "client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method",
        "rs", "build", "platform",
    ]

    let client: OAuthClient
    /// Where the response goes: the requested redirect URI (with its loopback port), or the only registered one.
    let redirectURI: String
    /// The `redirect_uri` parameter as sent, `nil` when left out.
    let redirectURIParameter: String?
    let state: String?
    /// The granted scope, space-separated.
    let scope: String
    let codeChallenge: String?
    /// The carried parameters that were present, for the form's hidden fields and the form token.
    let carried: [(name: String, value: String)]

    /// Validates `parameters` against the registered clients.
    static func validate(
        _ parameters: OAuthParameters, store: any OAuthStore, configuration: OAuthAuthorizationServer.Configuration
    ) async throws -> Result<AuthorizationRequest, Failure> {
        let repeated = Set(parameters.repeatedNames)
        guard !repeated.contains("client_id"), !repeated.contains("redirect_uri") else {
            return .failure(.page("The request repeats client_id or redirect_uri."))
        }
        guard let clientID = parameters["client_id"] else {
            return .failure(.page("The request has no client_id. Start the sign-in again from the app."))
        }
        guard let client = try await store.client(clientID) else {
            return .failure(.page("No app is registered with this client ID. Ask the host's administrator."))
        }
        let redirectParameter = parameters["redirect_uri"]
        let redirectURI: String
        if let redirectParameter {
            guard client.matchingRedirectURI(redirectParameter) != nil else {
                return .failure(.page("The redirect URI is not registered for this app. Ask the host's administrator."))
            }
            redirectURI = redirectParameter
        } else {
            guard client.redirectURIs.count == 1, LoopbackURI(client.redirectURIs[0]) == nil else {
                return .failure(.page("The request has no redirect_uri and this app has several; send one."))
            }
            redirectURI = client.redirectURIs[0]
        }
        let state = parameters["state"]
        func refuse(_ code: OAuthErrorCode, _ message: String) -> Result<AuthorizationRequest, Failure> {
            .failure(.redirect(OAuthProtocolError(code, message), to: redirectURI, state: state))
        }
        if let name = repeated.first(where: carriedNames.contains) {
            return refuse(.invalidRequest, "The parameter \(name) is repeated.")
        }
        if let name = carriedNames.first(where: { (parameters[$0]?.count ?? 0) > 2048 }) {
            return refuse(.invalidRequest, "The parameter \(name) is too long.")
        }
        switch parameters["response_type"] {
        case "code": break
        case nil: return refuse(.invalidRequest, "response_type is missing; use response_type=code.")
        default: return refuse(.unsupportedResponseType, "Only response_type=code is supported.")
        }
        let challenge = parameters["code_challenge"]
        let method = parameters["code_challenge_method"]
        if let method, method != "S256" {
            return refuse(.invalidRequest, "code_challenge_method must be S256; plain is not accepted.")
        }
        if let challenge {
            guard method != nil else {
                return refuse(
                    .invalidRequest, "Send code_challenge_method=S256 with code_challenge (plain is refused).")
            }
            guard challenge.count == 43, PKCES256.isWellFormed(challenge) else {
                return refuse(
                    .invalidRequest, "code_challenge must be the 43-character base64url SHA-256 of the verifier.")
            }
        } else if method != nil {
            return refuse(.invalidRequest, "code_challenge_method was sent without code_challenge.")
        } else if client.isPublic {
            return refuse(
                .invalidRequest, "This app must use PKCE: send code_challenge with code_challenge_method=S256.")
        }
        let requested = (parameters["scope"] ?? configuration.defaultScope).split(whereSeparator: { $0 == " " })
            .map(String.init)
        // Grant only what the deployment defines: other scopes are left out, and nothing grantable is refused.
        let scopes = requested.filter(configuration.grantableScopes.contains)
        guard !scopes.isEmpty else {
            return refuse(.invalidScope, "None of the scopes \(requested.joined(separator: " ")) is granted here.")
        }
        let carried = carriedNames.compactMap { name in parameters[name].map { (name: name, value: $0) } }
        return .success(
            AuthorizationRequest(
                client: client, redirectURI: redirectURI, redirectURIParameter: redirectParameter, state: state,
                scope: scopes.joined(separator: " "), codeChallenge: challenge, carried: carried))
    }
}
