import Foundation

/// An ``OAuthStore`` in one JSON file, shared by every process that opens it.
///
/// Clients, codes and tokens survive a restart of the host. Every change takes an exclusive `flock` on a
/// companion `.lock` file, reads the file, changes it, drops expired records, writes a temporary file (mode 0600)
/// and renames it over the original, so readers never see a half-written file, two writers never lose each
/// other's changes, and a code or refresh token is redeemed at most once across processes. Codes and tokens are
/// stored only as hashes. Meant for small deployments; a database store suits many users better.
public struct FileOAuthStore: OAuthStore {
    /// The JSON file.
    public let url: URL
    private let now: @Sendable () -> Date

    /// Creates a store backed by the file at `url` (created with its folder on first write).
    ///
    /// - Parameter now: the clock used to drop expired records, for tests.
    public init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
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

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    private func load() throws -> OAuthStoreState {
        guard FileManager.default.fileExists(atPath: url.path) else { return OAuthStoreState() }
        return try Self.decoder.decode(OAuthStoreState.self, from: Data(contentsOf: url))
    }

    private func store(_ state: OAuthStoreState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(state)
        let temporary = url.appendingPathExtension("tmp-\(UUID().uuidString)")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path]) }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// Runs `change` on the current state under the exclusive file lock and writes the result back.
    private func update<T>(_ change: (inout OAuthStoreState) -> T) throws -> T {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { flock(fd, LOCK_UN) }
        var state = try load()
        let result = change(&state)
        state.prune(now: now())
        try store(state)
        return result
    }
}
