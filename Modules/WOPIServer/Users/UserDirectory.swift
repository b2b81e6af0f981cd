/// Where the host's users live.
///
/// Open for third-party conformances (a provider plugs in its own account system). Reads must reflect changes
/// made by other processes at once: the example host's CLI adds users while the server runs.
public protocol UserDirectory: Sendable {
    /// The user with this ID, or `nil`.
    func user(_ id: String) async throws -> WOPIUser?

    /// Adds a user, or replaces the one with the same ID.
    func save(_ user: WOPIUser) async throws

    /// Stores the PutUserInfo string of a user.
    func setUserInfo(_ info: String, for id: String) async throws

    /// All users, sorted by ID.
    func allUsers() async throws -> [WOPIUser]
}

extension UserDirectory {
    /// Stores the PutUserInfo string by rewriting the user record.
    public func setUserInfo(_ info: String, for id: String) async throws {
        guard var user = try await user(id) else { return }
        user.userInfo = info
        try await save(user)
    }
}
