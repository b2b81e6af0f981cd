public import Foundation
public import NIOPosix
import WOPIAccounts
import WOPIFoundation
import WOPIModels
import WOPIOAuthCore

/// An ``OAuthStore`` in one JSON file, shared by every process that opens it.
///
/// Clients, codes and tokens survive a restart of the host. Every change takes an exclusive `flock` on a
/// companion `.lock` file, reads the file, changes it, drops expired records and replaces the file atomically and
/// durably (mode 0600), so readers never see a half-written file, two writers never lose each other's changes, and
/// a code or refresh token is redeemed at most once across processes. The file I/O runs on a `NIOThreadPool`.
/// Codes and tokens are stored only as hashes. Meant for small deployments; a database store suits many users
/// better.
public struct FileOAuthStore: OAuthStore {
    /// The JSON file.
    public var url: URL { file.url }
    private let file: SharedJSONFile<OAuthStoreState>
    private let now: @Sendable () -> Date

    /// Creates a store backed by the file at `url` (created with its folder on first write).
    ///
    /// - Parameters:
    ///   - threadPool: the pool that runs the blocking file I/O.
    ///   - now: the clock used to drop expired records, for tests.
    public init(url: URL, threadPool: NIOThreadPool = .singleton, now: @escaping @Sendable () -> Date = { Date() }) {
        file = SharedJSONFile(url: url, threadPool: threadPool, initial: { OAuthStoreState() })
        self.now = now
    }

    public func client(_ id: String) async throws -> OAuthClient? { try await load().clients[id] }

    public func saveClient(_ client: OAuthClient) async throws {
        try await update { $0.clients[client.id] = client }
    }

    public func allClients() async throws -> [OAuthClient] { try await load().sortedClients }

    public func saveCode(_ code: OAuthCodeRecord) async throws {
        try await update { $0.codes[code.hash] = code }
    }

    public func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>? {
        try await update { $0.redeemCode(hash) }
    }

    public func saveToken(_ token: OAuthTokenRecord) async throws {
        guard try await update({ $0.saveToken(token) }) else {
            throw OAuthFamilyRevokedError(familyID: token.familyID)
        }
    }

    public func token(_ hash: String) async throws -> OAuthTokenRecord? { try await load().tokens[hash] }

    public func redeemRefreshToken(_ hash: String) async throws -> OAuthRedemption<OAuthTokenRecord>? {
        try await update { $0.redeemRefreshToken(hash) }
    }

    public func revokeToken(_ hash: String) async throws {
        try await update { $0.tokens[hash] = nil }
    }

    public func revokeFamily(_ familyID: String) async throws {
        let until = now().addingTimeInterval(Self.revokedFamilyRetention)
        try await update { $0.revokeFamily(familyID, until: until) }
    }

    // MARK: - File

    private func load() async throws -> OAuthStoreState { try await file.read() }

    /// Runs `change` on the current state under the file's lock, drops expired records and writes it back.
    private func update<T: Sendable>(_ change: @escaping @Sendable (inout OAuthStoreState) -> T) async throws -> T {
        try await file.update { [now] state in
            let result = change(&state)
            state.prune(now: now())
            return result
        }
    }
}
