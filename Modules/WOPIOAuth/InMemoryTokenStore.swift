/// A ``TokenStore`` that keeps tokens in memory for the life of the process; the reference implementation.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: [String: TokenSet] = [:]

    /// Creates an empty store.
    public init() {}

    /// Returns the tokens kept under `key`.
    public func load(key: String) async throws -> TokenSet? { tokens[key] }

    /// Keeps `tokens` under `key`.
    public func save(_ tokens: TokenSet, key: String) async throws { self.tokens[key] = tokens }

    /// Forgets the tokens under `key`.
    public func delete(key: String) async throws { tokens[key] = nil }
}
