public import WOPIModels

/// How the host's bootstrapper (`/wopibootstrapper`) authenticates callers and what its 401 challenge says.
public struct BootstrapperConfiguration: Sendable {
    /// Checks the OAuth access token of each bootstrapper call.
    public var verifier: any OAuthAccessTokenVerifier
    /// The authorization endpoint: a path on this host (`/oauth2/authorize`) or an absolute URL.
    public var authorizationEndpoint: String
    /// The token endpoint: a path on this host (`/oauth2/token`) or an absolute URL.
    public var tokenEndpoint: String
    /// The provider ID Microsoft assigned, sent as `providerId`.
    public var providerID: String?
    /// The app-to-app sign-in schemes per platform, sent as `UrlSchemes`.
    public var urlSchemes: URLSchemes?

    /// Creates a configuration.
    public init(
        verifier: any OAuthAccessTokenVerifier, authorizationEndpoint: String = "/oauth2/authorize",
        tokenEndpoint: String = "/oauth2/token", providerID: String? = nil, urlSchemes: URLSchemes? = nil
    ) {
        self.verifier = verifier
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.providerID = providerID
        self.urlSchemes = urlSchemes
    }
}
