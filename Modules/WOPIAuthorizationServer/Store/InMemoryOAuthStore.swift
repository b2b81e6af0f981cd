public import Foundation
import WOPIModels
import WOPIOAuthCore

/// An ``OAuthStore`` in memory: the reference implementation, for tests and single-process hosts.
///
/// Everything is lost when the process ends; use ``FileOAuthStore`` (or a database) to keep sign-ins across
/// restarts.
public actor InMemoryOAuthStore: OAuthStore {
    private var state = OAuthStoreState()
    private let now: @Sendable () -> Date

    /// Creates an empty store.
    ///
    /// - Parameter now: the clock used to drop expired records, for tests.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    public func client(_ id: String) -> OAuthClient? { state.clients[id] }

    public func saveClient(_ client: OAuthClient) { state.clients[client.id] = client }

    public func allClients() -> [OAuthClient] { state.sortedClients }

    public func saveCode(_ code: OAuthCodeRecord) {
        state.prune(now: now())
        state.codes[code.hash] = code
    }

    public func redeemCode(_ hash: String) -> OAuthRedemption<OAuthCodeRecord>? { state.redeemCode(hash) }

    public func saveToken(_ token: OAuthTokenRecord) throws {
        state.prune(now: now())
        guard state.saveToken(token) else { throw OAuthFamilyRevokedError(familyID: token.familyID) }
    }

    public func token(_ hash: String) -> OAuthTokenRecord? { state.tokens[hash] }

    public func redeemRefreshToken(_ hash: String) -> OAuthRedemption<OAuthTokenRecord>? {
        state.redeemRefreshToken(hash)
    }

    public func revokeToken(_ hash: String) { state.tokens[hash] = nil }

    public func revokeFamily(_ familyID: String) {
        state.revokeFamily(familyID, until: now().addingTimeInterval(Self.revokedFamilyRetention))
    }
}
