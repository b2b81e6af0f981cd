import Foundation
import WOPIStorage

/// What a ``RemoteStorage`` has learned while browsing: for each remote ID, its endpoint with a token, its kind,
/// its parent (in the rooted view) and the local user whose root it lives under. Also the roots per user and
/// the locks this process holds through ``RemoteLockStore``.
actor RemoteItemDirectory {
    enum Kind: Sendable { case file, container }

    struct Entry: Sendable {
        var resource: WOPIResource
        var kind: Kind
        var name: String
        /// `nil` for a root of the rooted view (even when the remote container has a parent).
        var parentID: ItemID?
        var owner: String
    }

    private var entries: [ItemID: Entry] = [:]
    private var roots: [String: Task<ItemID, any Error>] = [:]
    private var heldLocks: [ItemID: FileLock] = [:]

    func entry(_ id: ItemID) -> Entry? { entries[id] }

    func record(_ id: ItemID, _ entry: Entry) {
        var entry = entry
        if let existing = entries[id], existing.parentID == nil, existing.kind == .container {
            // A root stays a root of the rooted view, whoever lists it.
            entry.parentID = nil
            entry.owner = existing.owner
        }
        entries[id] = entry
    }

    func rename(_ id: ItemID, to name: String) {
        entries[id]?.name = name
    }

    func forget(_ id: ItemID) {
        entries[id] = nil
        heldLocks[id] = nil
    }

    /// The root of `user`, asking `resolve` once per user (concurrent callers share the answer).
    func root(for user: String, resolve: @escaping @Sendable () async throws -> ItemID) async throws -> ItemID {
        if let task = roots[user] { return try await task.value }
        let task = Task { try await resolve() }
        roots[user] = task
        do {
            return try await task.value
        } catch {
            roots[user] = nil
            throw error
        }
    }

    /// Whether `id` is `ancestor` or lies below it, as far as the parents learned so far tell.
    func isSelfOrDescendant(_ id: ItemID, of ancestor: ItemID) -> Bool {
        var cursor: ItemID? = id
        var steps = 0
        while let current = cursor, steps < 4096 {
            if current == ancestor { return true }
            cursor = entries[current]?.parentID
            steps += 1
        }
        return false
    }

    func heldLock(_ id: ItemID) -> FileLock? { heldLocks[id] }

    func setHeldLock(_ lock: FileLock?, for id: ItemID) { heldLocks[id] = lock }
}
