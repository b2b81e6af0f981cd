/// A ``UserDirectory`` in memory: the reference implementation, for tests and for hosts whose users come from
/// elsewhere at start-up.
///
/// Everything is lost when the process ends, and other processes do not see it; use ``FileUserDirectory`` (or the
/// SQLite plugin's directory) to share users with the host's command-line tools.
///
/// ```swift
/// let users = InMemoryUserDirectory()
/// await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
/// ```
public actor InMemoryUserDirectory: UserDirectory {
    private var users: [String: WOPIUser] = [:]
    /// The IDs of the users by ``WOPIUser/signInKey(_:)``.
    private var idsBySignIn: [String: Set<String>] = [:]

    /// Creates a directory holding `users`.
    public init(_ users: [WOPIUser] = []) {
        for user in users {
            self.users[user.id] = user
        }
        for user in self.users.values {
            idsBySignIn[WOPIUser.signInKey(user.signInName), default: []].insert(user.id)
        }
    }

    public func user(_ id: String) -> WOPIUser? { users[id] }

    public func user(signInName: String) -> WOPIUser? {
        idsBySignIn[WOPIUser.signInKey(signInName)]?.min().flatMap { users[$0] }
    }

    public func save(_ user: WOPIUser) { insert(user) }

    public func allUsers() -> [WOPIUser] { users.values.sorted { $0.id < $1.id } }

    private func insert(_ user: WOPIUser) {
        if let old = users[user.id] {
            idsBySignIn[WOPIUser.signInKey(old.signInName)]?.remove(old.id)
        }
        users[user.id] = user
        idsBySignIn[WOPIUser.signInKey(user.signInName), default: []].insert(user.id)
    }
}
