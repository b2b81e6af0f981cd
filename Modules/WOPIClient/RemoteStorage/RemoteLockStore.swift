public import Foundation
public import WOPIStorage

/// The WOPI locks of a ``RemoteStorage``'s files as a ``LockStore``, for the FUSE mount: compare-and-swap maps
/// onto Lock, RefreshLock, Unlock and UnlockAndRelock, reads onto GetLock.
///
/// | expected → new | WOPI call |
/// |---|---|
/// | `nil` → lock | GetLock (must be unlocked), then Lock |
/// | `L` → `L` | RefreshLock |
/// | `L` → `M` | UnlockAndRelock |
/// | `L` → `nil` | Unlock |
/// | `nil` → `nil` | GetLock |
///
/// Locks this process holds are remembered, so ``RemoteStorage/writeFile(_:content:expectedVersion:)`` writes with
/// them. Limits: WOPI locks last 30 minutes from the last Lock or RefreshLock whatever `expiresAt` says (the
/// requested expiry is reported back for locks held here; others report 30 minutes from now), and the `nil` →
/// lock swap is GetLock then Lock, so a lock with the very same ID taken in between counts as a refresh.
///
/// Coauth locks belong to Office clients talking to the host directly, not to a mount: this store reports no
/// coauth locks and refuses to take any, and it cannot list or break the host's locks (an operator does that on
/// the host, with `wopi-host locks`).
public struct RemoteLockStore: LockStore {
    /// The storage whose files are locked.
    public let storage: RemoteStorage

    /// The WOPI lock lifetime.
    public static let lockDuration: TimeInterval = 30 * 60

    /// Creates a lock store for `storage`'s files (``RemoteStorage/locks`` gives one).
    public init(storage: RemoteStorage) {
        self.storage = storage
    }

    public func lock(on file: ItemID) async throws -> FileLock? {
        let entry = try await storage.fileEntry(file)
        let current = try await storage.remote("lock(on: \(file))", file) {
            try await storage.client.getLock(entry.resource)
        }
        return await describe(current, file)
    }

    public func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome {
        let entry = try await storage.fileEntry(file)
        let client = storage.client
        let resource = entry.resource
        do {
            switch (expected, new) {
            case (nil, nil):
                let current = try await client.getLock(resource)
                return current.isEmpty ? .swapped : .conflict(current: await describe(current, file))
            case (nil, let new?):
                let current = try await client.getLock(resource)
                guard current.isEmpty else { return .conflict(current: await describe(current, file)) }
                try await client.lock(resource, lockID: new.id)
            case (let old?, nil):
                try await client.unlock(resource, lockID: old)
            case (let old?, let new?) where old == new.id:
                try await client.refreshLock(resource, lockID: old)
            case (let old?, let new?):
                try await client.unlockAndRelock(resource, oldLockID: old, newLockID: new.id)
            }
        } catch let error as WOPIClientError where error.code == .lockConflict {
            return .conflict(current: await describe(error.currentLock ?? "", file))
        } catch {
            throw await storage.mapped(error, "compareAndSwap(file: \(file))", file)
        }
        await storage.directory.setHeldLock(new, for: file)
        return .swapped
    }

    /// No coauth locks: a mount never holds any, and WOPI does not let a client read another's.
    public func coauthLocks(on file: ItemID) async throws -> CoauthLockSet { .empty }

    /// Refuses with ``StorageError/Code/unsupported``: a mount does not co-author.
    public func compareAndSwapCoauth(file: ItemID, expectedRevision: Int64, new: [CoauthLock]) async throws
        -> CoauthSwapOutcome
    {
        throw Self.hostOnly("take coauth locks")
    }

    /// Refuses with ``StorageError/Code/unsupported``: list the locks on the host (`wopi-host locks`).
    public func heldLocks() async throws -> [HeldLock] {
        throw Self.hostOnly("list every lock")
    }

    /// Refuses with ``StorageError/Code/unsupported``: break locks on the host (`wopi-host locks --break`).
    public func breakLocks(on file: ItemID) async throws -> Int {
        throw Self.hostOnly("break locks")
    }

    private static func hostOnly(_ what: String) -> StorageError {
        StorageError(.unsupported, "A WOPI client cannot \(what) of a remote host; do it on the host itself.")
    }

    /// A lock value for the host's current lock ID (`""` is none).
    private func describe(_ current: String, _ file: ItemID) async -> FileLock? {
        guard !current.isEmpty else {
            await storage.directory.setHeldLock(nil, for: file)
            return nil
        }
        if let held = await storage.directory.heldLock(file), held.id == current { return held }
        return FileLock(id: current, expiresAt: Date().addingTimeInterval(Self.lockDuration))
    }
}
