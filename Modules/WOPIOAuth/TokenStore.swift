/// Keeps token sets between runs, by key (for example `"<issuer>|<client ID>|<user>"`).
///
/// Open for third-party conformances (a keychain, a secret service, a database). Implementations must be safe to
/// call concurrently and should throw ``OAuthError`` with ``OAuthError/Code/storage`` on failure.
public protocol TokenStore: Sendable {
    /// Returns the tokens saved under `key`, or `nil` if there are none.
    func load(key: String) async throws -> TokenSet?
    /// Saves tokens under `key`, replacing any saved before.
    func save(_ tokens: TokenSet, key: String) async throws
    /// Deletes the tokens saved under `key`; deleting nothing is not an error.
    func delete(key: String) async throws
}
