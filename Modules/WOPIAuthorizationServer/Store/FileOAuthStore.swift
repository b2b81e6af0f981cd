import Foundation
import WOPIModels
import WOPIOAuthCore
import WOPIServer

/// An ``OAuthStore`` in one JSON file, shared by every process that opens it.
///
/// Clients, codes and tokens survive a restart of the host. Every change takes an exclusive `flock` on a
/// companion `.lock` file, reads the file, changes it, drops expired records, writes a temporary file (mode 0600)
/// and renames it over the original, so readers never see a half-written file, two writers never lose each
/// other's changes, and a code or refresh token is redeemed at most once across processes. Codes and tokens are
/// stored only as hashes. Meant for small deployments; a database store suits many users better.
public struct FileOAuthStore: OAuthStore {
    /// The JSON file.
    public var url: URL { file.url }
    private let file: SharedJSONFile<OAuthStoreState>
    private let now: @Sendable () -> Date

    /// Creates a store backed by the file at `url` (created with its folder on first write).
    ///
    /// - Parameter now: the clock used to drop expired records, for tests.
    public init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        file = SharedJSONFile(url: url, initial: { OAuthStoreState() })
        self.now = now
    }

    public func client(_ id: String) async throws -> OAuthClient? { try load().clients[id] }

    public func saveClient(_ client: OAuthClient) async throws {
        try update { $0.clients[client.id] = client }
    }

    public func allClients() async throws -> [OAuthClient] { try load().sortedClients }

    public func saveCode(_ code: OAuthCodeRecord) async throws {
        try update { $0.codes[code.hash] = code }
    }

    public func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>? {
        try update { $0.redeemCode(hash) }
    }

    public func saveToken(_ token: OAuthTokenRecord) async throws {
        try update { $0.tokens[token.hash] = token }
    }

    public func token(_ hash: String) async throws -> OAuthTokenRecord? { try load().tokens[hash] }

    public func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>? {
        try update { $0.redeemRefreshToken(hash) }
    }

    public func revokeToken(_ hash: String) async throws {
        try update { $0.tokens[hash] = nil }
    }

    public func revokeFamily(_ familyID: String) async throws {
        try update { $0.revokeFamily(familyID) }
    }

    // MARK: - File

    private func load() throws -> OAuthStoreState { try file.read() }

    /// Runs `change` on the current state under the file's lock, drops expired records and writes it back.
    private func update<T>(_ change: (inout OAuthStoreState) -> T) throws -> T {
        try file.update { state in
            let result = change(&state)
            state.prune(now: now())
            return result
        }
    }
}
