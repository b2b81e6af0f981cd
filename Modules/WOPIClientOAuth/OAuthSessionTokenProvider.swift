public import WOPIClient
public import WOPIOAuth

/// Feeds a ``WOPIClient`` the OAuth access tokens of an ``OAuthSession``: the bridge every app that signs in with
/// `WOPIOAuth` and calls a host with `WOPIClient` needs.
///
/// Valid tokens come from the session, refreshed before they expire. After the bootstrapper rejects a token
/// (``invalidate(accessToken:)``), the next call forces a refresh instead of handing out the same token again.
/// `WOPIClient` and `WOPIOAuth` do not depend on each other; this small product joins them.
///
/// ```swift
/// let session = try await OAuthSession.restore(client: tokenClient, store: tokenStore, key: place)
/// let client = WOPIClient(
///     transport: AsyncHTTPClientTransport(), bootstrapper: bootstrapperURL,
///     tokenProvider: OAuthSessionTokenProvider(session: session))
/// ```
public actor OAuthSessionTokenProvider: BootstrapTokenProvider {
    /// The session the tokens come from.
    public let session: OAuthSession
    private var rejected: String?

    /// A provider over `session`.
    public init(session: OAuthSession) { self.session = session }

    /// A valid access token: a forced refresh after a rejection, else the session's current token.
    public func accessToken() async throws -> String {
        if let rejected {
            self.rejected = nil
            return try await session.refreshedAccessToken(replacing: rejected)
        }
        return try await session.validAccessToken()
    }

    /// Marks `accessToken` as refused by the host, so the next ``accessToken()`` refreshes.
    public func invalidate(accessToken: String) async {
        rejected = accessToken
    }
}
