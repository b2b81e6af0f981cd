import NIOConcurrencyHelpers
import WOPIStorage

/// The mount's table of open file and directory handles, and of the write sessions behind them.
///
/// All methods are synchronous and short, so they may run on the FUSE thread.
final class OpenFiles: Sendable {
    /// What a file handle (`fuse_file_info.fh`) stands for.
    struct Handle: Sendable {
        /// The open file.
        let itemID: ItemID
        /// The write session, for handles opened for writing.
        let session: WriteSession?
        /// The stream that serves reads, for handles opened read-only.
        var reader: StreamingReader? = nil
    }

    /// One entry of a directory listing taken at `opendir`.
    struct DirectoryEntry: Sendable {
        let name: String
        let inode: UInt64
        let mode: UInt32
    }

    private struct Finishing {
        let token: UInt64
        let task: Task<Void, Never>
    }

    private struct State {
        var handles: [UInt64: Handle] = [:]
        var directories: [UInt64: [DirectoryEntry]] = [:]
        var sessions: [ItemID: WriteSession] = [:]
        var users: [ObjectIdentifier: Int] = [:]
        var finishing: [ItemID: Finishing] = [:]
        var generations: [ItemID: UInt64] = [:]
        var nextNumber: UInt64 = 1
    }

    private let state = NIOLockedValueBox(State())

    // MARK: - Write sessions

    /// The current write session of `item`, if it is open for writing.
    func session(for item: ItemID) -> WriteSession? {
        state.withLockedValue { $0.sessions[item] }
    }

    /// Joins the write session of `item`, or makes a new one with `make` (given the finishing task of the
    /// previous session on that item, which the new one must wait for).
    ///
    /// - Returns: the session and whether it is new (then the caller starts it).
    func joinSession(
        for item: ItemID, make: (Task<Void, Never>?) throws -> WriteSession
    ) rethrows -> (session: WriteSession, isNew: Bool) {
        try state.withLockedValue { state in
            if let session = state.sessions[item] {
                state.users[ObjectIdentifier(session), default: 0] += 1
                return (session, false)
            }
            let session = try make(state.finishing[item]?.task)
            state.sessions[item] = session
            state.users[ObjectIdentifier(session)] = 1
            return (session, true)
        }
    }

    /// Stops offering `session` to new openers (its preparation failed); current users keep it.
    func detach(_ session: WriteSession) {
        state.withLockedValue { state in
            if state.sessions[session.itemID] === session { state.sessions[session.itemID] = nil }
        }
    }

    /// Leaves a session; returns `true` when that was its last user (the caller then finishes it).
    func leaveSession(_ session: WriteSession) -> Bool {
        state.withLockedValue { state in
            let key = ObjectIdentifier(session)
            let remaining = (state.users[key] ?? 1) - 1
            guard remaining <= 0 else {
                state.users[key] = remaining
                return false
            }
            state.users[key] = nil
            if state.sessions[session.itemID] === session { state.sessions[session.itemID] = nil }
            return true
        }
    }

    /// Runs `session.finish()` in the background, remembered so that a new session on the same file waits for it
    /// and ``waitForFinishing()`` can wait for all of them.
    func finishInBackground(_ session: WriteSession) {
        state.withLockedValue { state in
            state.generations[session.itemID, default: 0] += 1
            let token = state.nextNumber
            state.nextNumber += 1
            let previous = state.finishing[session.itemID]?.task
            let task = Task {
                await previous?.value
                await session.finish()
                self.forgetFinishing(session.itemID, token: token)
            }
            state.finishing[session.itemID] = Finishing(token: token, task: task)
        }
    }

    private func forgetFinishing(_ item: ItemID, token: UInt64) {
        state.withLockedValue { state in
            state.generations[item, default: 0] += 1
            if state.finishing[item]?.token == token { state.finishing[item] = nil }
        }
    }

    /// The background finish of the last session of `item` (upload, unlock), while it runs.
    func finishing(_ item: ItemID) -> Task<Void, Never>? {
        state.withLockedValue { $0.finishing[item]?.task }
    }

    /// A number that changes whenever a write session of `item` is saved through the mount, so that
    /// ``StreamingReader``s opened before reopen their stream.
    func generation(of item: ItemID) -> UInt64 {
        state.withLockedValue { $0.generations[item] ?? 0 }
    }

    /// Every session still open.
    var openSessions: [WriteSession] {
        state.withLockedValue { Array($0.sessions.values) }
    }

    /// Waits until every session that was finishing has finished.
    func waitForFinishing() async {
        let tasks = state.withLockedValue { $0.finishing.values.map(\.task) }
        for task in tasks { await task.value }
    }

    // MARK: - Handles

    /// Registers an open file and returns its handle number.
    func add(_ handle: Handle) -> UInt64 {
        state.withLockedValue { state in
            let number = state.nextNumber
            state.nextNumber += 1
            state.handles[number] = handle
            return number
        }
    }

    /// The open file behind a handle number.
    func handle(_ number: UInt64) -> Handle? {
        state.withLockedValue { $0.handles[number] }
    }

    /// Forgets a handle and returns what it stood for.
    func removeHandle(_ number: UInt64) -> Handle? {
        state.withLockedValue { $0.handles.removeValue(forKey: number) }
    }

    /// Registers a directory listing and returns its handle number.
    func addDirectory(_ entries: [DirectoryEntry]) -> UInt64 {
        state.withLockedValue { state in
            let number = state.nextNumber
            state.nextNumber += 1
            state.directories[number] = entries
            return number
        }
    }

    /// The listing behind a directory handle.
    func directory(_ number: UInt64) -> [DirectoryEntry]? {
        state.withLockedValue { $0.directories[number] }
    }

    /// Forgets a directory handle.
    func removeDirectory(_ number: UInt64) {
        state.withLockedValue { _ = $0.directories.removeValue(forKey: number) }
    }
}
