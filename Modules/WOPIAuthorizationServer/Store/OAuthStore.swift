import Foundation
import WOPIModels
import WOPIOAuthCore
import WOPIServer

/// Where the ``OAuthAuthorizationServer`` keeps clients, authorization codes and tokens.
///
/// Open for third-party conformances (a database, a shared cache). Codes and tokens are stored only as their
/// SHA-256 hash (``OAuthTokenHash/hash(_:)``), so a leaked store reveals no usable credential. Every method is
/// one atomic step: in particular ``redeemCode(_:)`` and ``redeemRefreshToken(_:)`` must mark the record used
/// and return what it was in one indivisible operation, even when several processes share the store, so a code
/// or refresh token can be used only once.
///
/// Implementations drop records whose `expiresAt` has passed whenever convenient; a used code or refresh token
/// must be kept until it expires, so that a replay is recognised. ``InMemoryOAuthStore`` is the reference;
/// ``FileOAuthStore`` shares one JSON file between processes.
public protocol OAuthStore: Sendable {
    /// The client with this ID, or `nil`.
    func client(_ id: String) async throws -> OAuthClient?

    /// Adds a client, or replaces the one with the same ID (for example to change its secret).
    func saveClient(_ client: OAuthClient) async throws

    /// Every client, sorted by ID.
    func allClients() async throws -> [OAuthClient]

    /// Stores a new authorization code.
    func saveCode(_ code: OAuthCodeRecord) async throws

    /// Atomically marks the code with this hash redeemed; `nil` when no such code is stored.
    func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>?

    /// Stores a new access or refresh token.
    func saveToken(_ token: OAuthTokenRecord) async throws

    /// The token with this hash, or `nil` when it is unknown or was revoked (expired ones may still be returned).
    func token(_ hash: String) async throws -> OAuthTokenRecord?

    /// Atomically marks the refresh token with this hash used; `nil` when no such refresh token is stored.
    func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>?

    /// Deletes one token (access or refresh); nothing happens when it is unknown.
    func revokeToken(_ hash: String) async throws

    /// Deletes every token of a family, and makes its authorization code unusable.
    func revokeFamily(_ familyID: String) async throws
}
