/// Where the host's users live.
///
/// Open for third-party conformances (a provider plugs in its own account system). Reads must reflect changes
/// made by other processes at once: the example host's CLI adds users while the server runs. The
/// `UserDirectoryConformance` kit of the `WOPIServerConformance` product checks an implementation;
/// ``InMemoryUserDirectory`` is the reference.
public protocol UserDirectory: Sendable {
    /// The user with this ID, or `nil`.
    func user(_ id: String) async throws -> WOPIUser?

    /// The user whose ``WOPIUser/signInName`` matches `signInName` ignoring case (compare
    /// ``WOPIUser/signInKey(_:)`` of both), or `nil`; when several users match, the one with the smallest ID.
    ///
    /// Sign-in calls this for every attempt, so an implementation should answer from an index rather than by
    /// listing every user (the default implementation does that: override it).
    func user(signInName: String) async throws -> WOPIUser?

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

    /// Finds the user by listing them all; directories with an index override it.
    public func user(signInName: String) async throws -> WOPIUser? {
        try await allUsers().first(matchingSignIn: signInName)
    }
}

extension Sequence<WOPIUser> {
    /// The user with the smallest ID whose sign-in name matches `signInName` ignoring case.
    package func first(matchingSignIn signInName: String) -> WOPIUser? {
        let key = WOPIUser.signInKey(signInName)
        return filter { WOPIUser.signInKey($0.signInName) == key }.min { $0.id < $1.id }
    }
}
