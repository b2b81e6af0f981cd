import Foundation
public import Logging

/// Runs the whole RFC 8252 sign-in: a loopback receiver, an authorization request with PKCE and state, the
/// external browser, the wait for the redirect, its checks, and the code exchange.
///
/// ```swift
/// let authorizer = NativeAppAuthorizer()
/// let tokens = try await authorizer.authorize(configuration: config, userAgent: SystemBrowser())
/// try await session.signIn(with: tokens)
/// ```
public struct NativeAppAuthorizer: Sendable {
    /// The HTTP transport for the token endpoint.
    public var transport: any OAuthHTTPTransport
    /// Where the loopback receiver listens.
    public var loopback: LoopbackRedirectReceiver.Configuration
    /// How long the user has to finish signing in.
    public var timeout: Duration
    /// The logger (never given tokens or codes).
    public var logger: Logger

    /// Creates an authorizer.
    public init(
        transport: any OAuthHTTPTransport = AsyncHTTPClientOAuthTransport(),
        loopback: LoopbackRedirectReceiver.Configuration = .init(), timeout: Duration = .seconds(300),
        logger: Logger = Logger(label: "WOPIOAuth")
    ) {
        self.transport = transport
        self.loopback = loopback
        self.timeout = timeout
        self.logger = logger
    }

    /// Signs the user in and returns the tokens.
    ///
    /// - Parameters:
    ///   - configuration: The client and server; the loopback redirect URI must be allowed by the registration
    ///     (RFC 8252 §7.3 asks servers to accept any port).
    ///   - userAgent: Opens the authorization URL, for example ``SystemBrowser`` or ``PrintingUserAgent``.
    /// - Throws: ``OAuthError``: the redirect's checks (``OAuthError/Code/stateMismatch``,
    ///   ``OAuthError/Code/issuerMismatch``), the server's error (``OAuthError/Code/accessDenied`` …),
    ///   ``OAuthError/Code/timeout``, ``OAuthError/Code/cancelled``, ``OAuthError/Code/userAgentFailed``, or the
    ///   token endpoint's error.
    public func authorize(configuration: OAuthClientConfiguration, userAgent: any ExternalUserAgent)
        async throws(OAuthError) -> TokenSet
    {
        let receiver = try await LoopbackRedirectReceiver.start(configuration: loopback, logger: logger)
        let request = AuthorizationRequest(configuration: configuration, redirectURI: receiver.redirectURI)
        logger.debug(
            "Opening the authorization URL",
            metadata: [
                "authorization_endpoint": "\(configuration.authorizationEndpoint.absoluteString)",
                "redirect_uri": "\(receiver.redirectURI.absoluteString)",
            ])
        do {
            try await userAgent.open(request.url)
        } catch {
            await receiver.close()
            throw (error as? OAuthError)
                ?? OAuthError(
                    .userAgentFailed, "Could not open the browser; open the URL by hand or choose another browser.",
                    underlying: error)
        }
        let response = try await receiver.waitForAuthorizationResponse(expecting: request.expectation, timeout: timeout)
        let client = TokenEndpointClient(configuration: configuration, transport: transport, logger: logger)
        return try await client.exchange(response, for: request)
    }
}
