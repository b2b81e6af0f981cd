import WOPIClient
import WOPIOAuth

/// Adapts a `WOPIOAuth.OAuthSession` to ``BootstrapTokenProvider``: valid tokens come from the session (refreshed
/// before expiry); after the bootstrapper rejects one, the next is a forced refresh.
actor OAuthSessionTokenProvider: BootstrapTokenProvider {
    let session: OAuthSession
    private var rejected: String?

    init(session: OAuthSession) { self.session = session }

    func accessToken() async throws -> String {
        if let rejected {
            self.rejected = nil
            return try await session.refreshedAccessToken(replacing: rejected)
        }
        return try await session.validAccessToken()
    }

    func invalidate(accessToken: String) async {
        rejected = accessToken
    }
}
