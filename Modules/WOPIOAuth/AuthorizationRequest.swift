public import Foundation
import WOPIModels

/// One authorization code request (RFC 6749 §4.1.1) with PKCE (RFC 7636) and a fresh `state`.
///
/// Keep the request until the redirect arrives: its ``state`` and ``pkce`` verifier are needed to check the response
/// and to redeem the code.
///
/// ```swift
/// let request = AuthorizationRequest(configuration: config, redirectURI: receiver.redirectURI)
/// try await userAgent.open(request.url)
/// ```
public struct AuthorizationRequest: Sendable {
    /// One query parameter of the authorize URL.
    public struct Parameter: Sendable, Hashable {
        /// The parameter name.
        public var name: String
        /// The parameter value (unescaped).
        public var value: String

        /// Creates a parameter.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The parameters this type sets itself; additional parameters with these names are dropped.
    static let protocolParameterNames: Set<String> = [
        "client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method",
    ]

    /// The client and server this request is for.
    public let configuration: OAuthClientConfiguration
    /// The redirect URI sent in the request and again at the code exchange.
    public let redirectURI: URL
    /// The opaque `state` value the redirect must echo.
    public let state: String
    /// The PKCE pair; only its challenge leaves this process with the request.
    public let pkce: PKCE

    /// Creates a request with a fresh state and PKCE pair unless given.
    ///
    /// - Parameters:
    ///   - configuration: The client and server.
    ///   - redirectURI: Where the server sends the browser back to (a loopback, custom-scheme or https URI).
    ///   - state: The `state` value; by default 256 random bits. Pass your own only if it has at least 128 bits.
    ///   - pkce: The PKCE pair; by default a fresh one.
    public init(
        configuration: OAuthClientConfiguration, redirectURI: URL, state: String = AuthorizationRequest.makeState(),
        pkce: PKCE = PKCE()
    ) {
        self.configuration = configuration
        self.redirectURI = redirectURI
        self.state = state
        self.pkce = pkce
    }

    /// Returns a fresh `state` value: 256 random bits as 43 base64url characters.
    public static func makeState() -> String {
        Base64URL.randomString(byteCount: 32)
    }

    /// The protocol parameters followed by the configuration's additional ones.
    public var parameters: [Parameter] {
        var parameters = [
            Parameter("response_type", "code"),
            Parameter("client_id", configuration.clientID),
            Parameter("redirect_uri", redirectURI.absoluteString),
        ]
        if !configuration.scopes.isEmpty {
            parameters.append(Parameter("scope", configuration.scopes.joined(separator: " ")))
        }
        parameters += [
            Parameter("state", state),
            Parameter("code_challenge", pkce.challenge),
            Parameter("code_challenge_method", PKCE.method),
        ]
        parameters += configuration.additionalAuthorizationParameters.filter {
            !Self.protocolParameterNames.contains($0.name)
        }
        return parameters
    }

    /// The URL to open in the user's browser: the authorization endpoint with its own query kept and ``parameters``
    /// appended.
    public var url: URL {
        var base = configuration.authorizationEndpoint.absoluteString
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        let query = PercentEncoding.encodePairs(parameters.map { ($0.name, $0.value) })
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        // Every component is percent-encoded, so the result always parses.
        return URL(string: base + separator + query)!
    }

    /// What the redirect must carry to be accepted: this request's state and the configured issuer.
    public var expectation: AuthorizationResponse.Expectation {
        AuthorizationResponse.Expectation(
            state: state, issuer: configuration.issuer, issuerRequired: configuration.requiresIssuerParameter)
    }
}
