import Foundation

/// A ``UserDirectory`` in one JSON file, safe to share between processes.
///
/// Every read loads the file, so a running host sees users that a CLI added a moment ago. Every change takes an
/// exclusive `flock` on a companion lock file, rewrites a temporary file and renames it over the original, so
/// readers never see a half-written file and two writers never lose each other's changes. Meant for small
/// deployments (tens of users); the SQLite plugin stores users in its database instead.
public struct FileUserDirectory: UserDirectory {
    private let file: SharedJSONFile<[WOPIUser]>

    /// Creates a directory backed by the JSON file at `url` (created on first save, mode 0600).
    public init(url: URL) {
        file = SharedJSONFile(url: url, initial: { [] })
    }

    public func user(_ id: String) async throws -> WOPIUser? {
        try file.read().last { $0.id == id }
    }

    public func save(_ user: WOPIUser) async throws {
        try file.update { users in
            users.removeAll { $0.id == user.id }
            users.append(user)
            users.sort { $0.id < $1.id }
        }
    }

    public func allUsers() async throws -> [WOPIUser] {
        try file.read().sorted { $0.id < $1.id }
    }
}
