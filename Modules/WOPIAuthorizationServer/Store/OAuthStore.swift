public import Foundation
public import WOPIAccounts
import WOPIModels
import WOPIOAuthCore

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
    ///
    /// Throws ``OAuthFamilyRevokedError`` instead, saving nothing, when ``revokeFamily(_:)`` revoked the token's
    /// family (within ``revokedFamilyRetention``). The check and the insert are one atomic step against
    /// ``revokeFamily(_:)``, even when several processes share the store: a redemption that raced a replay of the
    /// same code or refresh token cannot save tokens that outlive the revocation.
    func saveToken(_ token: OAuthTokenRecord) async throws

    /// The token with this hash, or `nil` when it is unknown or was revoked (expired ones may still be returned).
    func token(_ hash: String) async throws -> OAuthTokenRecord?

    /// Atomically marks the refresh token with this hash used; `nil` when no such refresh token is stored.
    func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>?

    /// Deletes one token (access or refresh); nothing happens when it is unknown.
    func revokeToken(_ hash: String) async throws

    /// Deletes every token of a family, makes its authorization code unusable, and refuses tokens saved into the
    /// family for the next ``revokedFamilyRetention`` (``saveToken(_:)`` throws ``OAuthFamilyRevokedError``).
    func revokeFamily(_ familyID: String) async throws
}

extension OAuthStore {
    /// How long a store remembers a revoked family, refusing new tokens in it: one day.
    ///
    /// A family gets new tokens only from the one redemption of its code and from refreshes of its refresh
    /// tokens, which the revocation deletes; the mark closes the window in which a redemption that raced a replay
    /// has not saved its tokens yet (milliseconds to seconds), with a wide margin.
    public static var revokedFamilyRetention: TimeInterval { 86_400 }
}

/// What ``OAuthStore/saveToken(_:)`` throws for a token whose family was revoked: the code or refresh token it
/// was issued from had been replayed meanwhile. The token endpoint answers `invalid_grant`; the client signs in
/// again.
public struct OAuthFamilyRevokedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The revoked family.
    public let familyID: String

    /// The error for a token of `familyID`.
    public init(familyID: String) { self.familyID = familyID }

    public var description: String {
        "The token family \(familyID) was revoked (its code or refresh token was used twice); the token was not "
            + "saved. Sign in again."
    }
}

extension OAuthStore {
    /// The user a token of `kind` was issued to, as `users` has them now: `nil` when the store keeps no such token
    /// of that kind, when it has expired at `now`, when the user is gone, or when it was issued before the user's
    /// password changed. The one check behind an access token (``OAuthAuthorizationServer/userID(forAccessToken:)``)
    /// and a host-page session.
    public func currentUser(
        holding token: String, kind: OAuthTokenRecord.Kind, in users: any UserDirectory, now: Date
    ) async throws -> WOPIUser? {
        guard let record = try await self.token(OAuthTokenHash.hash(token)), record.kind == kind,
            record.expiresAt > now, let user = try await users.user(record.userID),
            user.isCurrent(credentialStamp: record.credentialStamp)
        else { return nil }
        return user
    }
}
