import Foundation
import WOPIModels
import WOPIOAuthCore

/// The whole content of an ``OAuthStore`` as a value, with the store's rules as mutating methods.
///
/// ``InMemoryOAuthStore`` keeps one in an actor; ``FileOAuthStore`` loads one under a file lock, changes it and
/// writes it back. Keeping the rules here means both stores behave identically.
struct OAuthStoreState: Codable, Sendable {
    var version = 1
    var clients: [String: OAuthClient] = [:]
    var codes: [String: OAuthCodeRecord] = [:]
    var tokens: [String: OAuthTokenRecord] = [:]
    /// Revoked families, each until when new tokens in it are refused (optional: files written before it existed
    /// have none).
    var revokedFamilies: [String: Date]? = [:]

    var sortedClients: [OAuthClient] { clients.values.sorted { $0.id < $1.id } }

    mutating func redeemCode(_ hash: String) -> OAuthRedemption<OAuthCodeRecord>? {
        guard let code = codes[hash] else { return nil }
        if code.isRedeemed { return .replay(code) }
        codes[hash]?.isRedeemed = true
        return .first(code)
    }

    mutating func redeemRefreshToken(_ hash: String) -> OAuthRedemption<OAuthTokenRecord>? {
        guard let token = tokens[hash], token.kind == .refresh else { return nil }
        if token.isUsed { return .replay(token) }
        tokens[hash]?.isUsed = true
        return .first(token)
    }

    /// Saves `token`; `false`, saving nothing, when its family is revoked.
    mutating func saveToken(_ token: OAuthTokenRecord) -> Bool {
        if revokedFamilies?[token.familyID] != nil { return false }
        tokens[token.hash] = token
        return true
    }

    mutating func revokeFamily(_ familyID: String, until: Date) {
        revokedFamilies = (revokedFamilies ?? [:]).merging([familyID: until]) { max($0, $1) }
        tokens = tokens.filter { $0.value.familyID != familyID }
        for (hash, code) in codes where code.familyID == familyID {
            codes[hash]?.isRedeemed = true
        }
    }

    /// Drops codes and tokens that expired before `now`.
    mutating func prune(now: Date) {
        codes = codes.filter { $0.value.expiresAt > now }
        tokens = tokens.filter { $0.value.expiresAt > now }
        revokedFamilies = revokedFamilies?.filter { $0.value > now }
    }
}
