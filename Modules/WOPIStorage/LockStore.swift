public import Foundation

/// A WOPI lock held on a file: an opaque lock ID and when it lapses.
public struct FileLock: Sendable, Hashable, Codable {
    /// The lock ID as the client sent it, compared byte for byte.
    public var id: String
    /// When the lock expires unless refreshed; an expired lock counts as no lock.
    public var expiresAt: Date

    /// Creates a lock value.
    public init(id: String, expiresAt: Date) {
        self.id = id
        self.expiresAt = expiresAt
    }
}

/// The outcome of ``LockStore/compareAndSwap(file:expected:new:)``.
public enum LockSwapOutcome: Sendable, Hashable {
    /// The lock was found as expected and replaced.
    case swapped
    /// The lock was not as expected; nothing changed. Carries the current unexpired lock, `nil` when unlocked.
    case conflict(current: FileLock?)
}

/// Where WOPI locks live, so that several host processes can share them.
///
/// A store does only two things: read the current lock and atomically compare-and-swap it. All WOPI lock
/// rules (what Lock, Unlock, RefreshLock and friends mean) are decided by the server on top of these two
/// primitives, so a store cannot get them wrong. Two racing swaps from the same expected state can never
/// both succeed.
///
/// Expired locks are treated as absent by both methods. This protocol is open for third-party conformances;
/// ``InMemoryLockStore`` is the reference implementation.
public protocol LockStore: Sendable {
    /// The current unexpired lock on `file`, or `nil`.
    func lock(on file: ItemID) async throws -> FileLock?

    /// Replaces the lock on `file` with `new` (or removes it when `new` is `nil`), but only if the current
    /// unexpired lock's ID equals `expected` (`nil` meaning "unlocked").
    func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome
}

/// A ``LockStore`` in process memory: for one host process, and as the reference for other stores.
public actor InMemoryLockStore: LockStore {
    private var locks: [ItemID: FileLock] = [:]
    private let now: @Sendable () -> Date

    /// Creates an empty store.
    ///
    /// - Parameter now: the clock used to decide expiry; tests inject their own.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    public func lock(on file: ItemID) -> FileLock? {
        guard let lock = locks[file] else { return nil }
        if lock.expiresAt <= now() {
            locks[file] = nil
            return nil
        }
        return lock
    }

    public func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) -> LockSwapOutcome {
        let current = lock(on: file)
        guard current?.id == expected else { return .conflict(current: current) }
        locks[file] = new
        return .swapped
    }
}
