/// Verifies the OAuth 2.0 access tokens that Office presents to the bootstrapper.
///
/// The bootstrapper accepts OAuth tokens (issued by your token endpoint), not WOPI tokens. WOPIKit's own
/// authorization server conforms; a provider with an existing identity system conforms its own verifier instead.
/// Open for third-party conformances.
public protocol OAuthAccessTokenVerifier: Sendable {
    /// The ID of the user a token was issued to, or `nil` when the token is unknown, expired or revoked.
    func userID(forAccessToken token: String) async throws -> String?
}
