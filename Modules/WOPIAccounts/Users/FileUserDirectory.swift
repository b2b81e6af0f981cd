public import Foundation
public import NIOPosix
import Synchronization
import WOPIFoundation

/// A ``UserDirectory`` in one JSON file, safe to share between processes.
///
/// Every read checks the file, so a running host sees users that a CLI added a moment ago: one `stat` compares
/// the file's identity (device, inode, size, modification and change times to the nanosecond) with that of the
/// copy decoded last, and only a changed file is read and decoded again (see `UsersFileSnapshot` for the one
/// exception: a file changed in the last two seconds is always read again). Every change takes an exclusive `flock`
/// on a companion lock file and replaces the file atomically and durably (mode 0600), so readers never see a
/// half-written file and two writers never lose each other's changes. The file I/O runs on a `NIOThreadPool`.
/// Meant for small deployments (tens of users); the SQLite plugin stores users in its database instead.
public struct FileUserDirectory: UserDirectory {
    private let file: SharedJSONFile<[WOPIUser]>
    private let now: @Sendable () -> Date
    /// The users decoded last, shared by the copies of this value.
    private let snapshot = SharedSnapshot()

    /// Creates a directory backed by the JSON file at `url` (created on first save, mode 0600).
    ///
    /// - Parameters:
    ///   - threadPool: the pool that runs the blocking file I/O.
    ///   - now: the clock that dates each `stat` of the file, to tell whether its times can show a later edit.
    public init(url: URL, threadPool: NIOThreadPool = .singleton, now: @escaping @Sendable () -> Date = { Date() }) {
        file = SharedJSONFile(url: url, threadPool: threadPool, initial: { [] })
        self.now = now
    }

    public func user(_ id: String) async throws -> WOPIUser? {
        try await users().last { $0.id == id }
    }

    /// Reads the file once and matches in memory (the file holds every user anyway).
    public func user(signInName: String) async throws -> WOPIUser? {
        try await users().first(matchingSignIn: signInName)
    }

    public func save(_ user: WOPIUser) async throws {
        try await file.update { users in
            users.removeAll { $0.id == user.id }
            users.append(user)
            users.sort { $0.id < $1.id }
        }
    }

    public func allUsers() async throws -> [WOPIUser] {
        try await users().sorted { $0.id < $1.id }
    }

    /// The file's users: the decoded copy when the file is unchanged, else the file read and decoded afresh.
    private func users() async throws -> [WOPIUser] {
        let path = file.url.path
        let statTime = now()
        // A `stat` answered from the inode cache runs where the request runs (Docs/architecture.md, "Short
        // metadata reads run where the request runs"); reading and decoding a changed file stays on the pool.
        let identity: UsersFileSnapshot.Identity?
        do {
            identity = try UsersFileSnapshot.Identity.of(path: path)
        } catch let failure as POSIXFailure {
            throw StorageError(failure, "Checking \(path)")
        }
        if let identity, let cached = snapshot.users(for: identity) { return cached }
        // Read after the stat: the content is at least as new as `identity`, so a change in between is seen by
        // the next read's stat.
        let users = try await file.read()
        snapshot.store(UsersFileSnapshot(identity: identity, statTime: statTime, users: users))
        return users
    }
}

extension FileUserDirectory {
    /// The snapshot that the copies of one directory share.
    private final class SharedSnapshot: Sendable {
        private let current = Mutex<UsersFileSnapshot?>(nil)

        func users(for identity: UsersFileSnapshot.Identity) -> [WOPIUser]? {
            current.withLock { snapshot in snapshot?.identity == identity ? snapshot?.users : nil }
        }

        func store(_ snapshot: UsersFileSnapshot?) {
            current.withLock { $0 = snapshot }
        }
    }
}
