import Foundation
import NIOPosix

/// A ``UserDirectory`` in one JSON file, safe to share between processes.
///
/// Every read loads the file, so a running host sees users that a CLI added a moment ago. Every change takes an
/// exclusive `flock` on a companion lock file and replaces the file atomically and durably (mode 0600), so readers
/// never see a half-written file and two writers never lose each other's changes. The file I/O runs on a
/// `NIOThreadPool`. Meant for small deployments (tens of users); the SQLite plugin stores users in its database
/// instead.
public struct FileUserDirectory: UserDirectory {
    private let file: SharedJSONFile<[WOPIUser]>

    /// Creates a directory backed by the JSON file at `url` (created on first save, mode 0600).
    ///
    /// - Parameter threadPool: the pool that runs the blocking file I/O.
    public init(url: URL, threadPool: NIOThreadPool = .singleton) {
        file = SharedJSONFile(url: url, threadPool: threadPool, initial: { [] })
    }

    public func user(_ id: String) async throws -> WOPIUser? {
        try await file.read().last { $0.id == id }
    }

    /// Reads the file once and matches in memory (the file holds every user anyway).
    public func user(signInName: String) async throws -> WOPIUser? {
        try await file.read().first(matchingSignIn: signInName)
    }

    public func save(_ user: WOPIUser) async throws {
        try await file.update { users in
            users.removeAll { $0.id == user.id }
            users.append(user)
            users.sort { $0.id < $1.id }
        }
    }

    public func allUsers() async throws -> [WOPIUser] {
        try await file.read().sorted { $0.id < $1.id }
    }
}
