import WOPIAuthorizationServer

/// A test store that changes some operations of an ``InMemoryOAuthStore`` and forwards every other one to it: the
/// store declares only what it does differently.
protocol ForwardingOAuthStore: OAuthStore {
    /// Where every operation the store does not declare itself goes.
    var base: InMemoryOAuthStore { get }
}

extension ForwardingOAuthStore {
    func client(_ id: String) async throws -> OAuthClient? { await base.client(id) }
    func saveClient(_ client: OAuthClient) async throws { await base.saveClient(client) }
    func allClients() async throws -> [OAuthClient] { await base.allClients() }
    func saveCode(_ code: OAuthCodeRecord) async throws { await base.saveCode(code) }
    func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>? { await base.redeemCode(hash) }
    func saveToken(_ token: OAuthTokenRecord) async throws { try await base.saveToken(token) }
    func token(_ hash: String) async throws -> OAuthTokenRecord? { await base.token(hash) }
    func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>? {
        await base.redeemRefreshToken(hash)
    }
    func revokeToken(_ hash: String) async throws { await base.revokeToken(hash) }
    func revokeFamily(_ familyID: String) async throws { await base.revokeFamily(familyID) }
}
