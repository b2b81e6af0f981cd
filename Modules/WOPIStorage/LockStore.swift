public import Foundation

/// A WOPI lock held on a file: an opaque lock ID and when it lapses.
public struct FileLock: Sendable, Hashable, Codable {
    /// The lock ID as the client sent it, compared byte for byte.
    public var id: String
    /// When the lock expires unless refreshed; an expired lock counts as no lock.
    public var expiresAt: Date
    /// The friendly name of the user who took the lock, when known (for operators).
    public var holder: String?
    /// The name to answer in `X-WOPI-ConflictingLockUsername` when this lock makes a request fail: set when the
    /// client asked for it with `X-WOPI-LockUserVisible: true`, `nil` otherwise.
    public var visibleName: String?
    /// When the lock was first taken, when known; a refresh keeps it.
    public var takenAt: Date?

    /// Creates a lock value.
    public init(
        id: String, expiresAt: Date, holder: String? = nil, visibleName: String? = nil, takenAt: Date? = nil
    ) {
        self.id = id
        self.expiresAt = expiresAt
        self.holder = holder
        self.visibleName = visibleName
        self.takenAt = takenAt
    }
}

/// The outcome of ``LockStore/compareAndSwap(file:expected:new:)``.
public enum LockSwapOutcome: Sendable, Hashable {
    /// The lock was found as expected and replaced.
    case swapped
    /// The lock was not as expected; nothing changed. Carries the current unexpired lock, `nil` when unlocked.
    case conflict(current: FileLock?)
    /// The swap would set a WOPI lock while unexpired coauth locks are held, which exclude it; nothing changed.
    case coauthLocked
}

/// Where WOPI locks and co-authoring (coauth) locks live, so that several host processes can share them.
///
/// A store keeps two things per file, the WOPI lock and the coauth table, and for each does only two things:
/// read it and atomically compare-and-swap it. All lock rules (what Lock, Unlock, GetCoauthLock and friends
/// mean) are decided by the server on top of these primitives, so a store cannot get them wrong. Two racing
/// swaps from the same expected state can never both succeed. The store enforces one rule itself, because only
/// it sees both halves at once: a WOPI lock and coauth locks exclude each other (a swap that would set one while
/// the other is held fails), atomically across every host sharing the store.
///
/// Expired locks are treated as absent by every method, by the store's own clock. This protocol is open for
/// third-party conformances; ``InMemoryLockStore`` is the reference implementation, and
/// `LockStoreConformance` (WOPIStorageConformance) checks a store.
public protocol LockStore: Sendable {
    /// The current unexpired WOPI lock on `file`, or `nil`.
    func lock(on file: ItemID) async throws -> FileLock?

    /// Replaces the WOPI lock on `file` with `new` (or removes it when `new` is `nil`), but only if the current
    /// unexpired lock's ID equals `expected` (`nil` meaning "unlocked"), and, when `new` is a lock, no unexpired
    /// coauth lock is held (else ``LockSwapOutcome/coauthLocked``).
    func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome

    /// The unexpired coauth locks on `file` and the table's revision.
    func coauthLocks(on file: ItemID) async throws -> CoauthLockSet

    /// Replaces the coauth table of `file` with `new` and moves its revision on, but only if its revision is
    /// still `expectedRevision` and, when `new` is not empty, no unexpired WOPI lock is held.
    func compareAndSwapCoauth(file: ItemID, expectedRevision: Int64, new: [CoauthLock]) async throws
        -> CoauthSwapOutcome

    /// Every unexpired lock of every file, WOPI and coauth, for operators.
    func heldLocks() async throws -> [HeldLock]

    /// Ends every lock on `file` (the WOPI lock and the whole coauth table), so that a new session can lock it.
    ///
    /// - Returns: how many unexpired locks were ended.
    @discardableResult
    func breakLocks(on file: ItemID) async throws -> Int
}

/// A ``LockStore`` in process memory: for one host process, and as the reference for other stores.
public actor InMemoryLockStore: LockStore {
    private var locks: [ItemID: FileLock] = [:]
    private var coauth: [ItemID: CoauthLockSet] = [:]
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
        if new != nil, !coauthLocks(on: file).locks.isEmpty { return .coauthLocked }
        locks[file] = new
        return .swapped
    }

    public func coauthLocks(on file: ItemID) -> CoauthLockSet {
        guard let table = coauth[file] else { return .empty }
        let now = now()
        return CoauthLockSet(locks: table.locks.filter { $0.expiresAt > now }, revision: table.revision)
    }

    public func compareAndSwapCoauth(file: ItemID, expectedRevision: Int64, new: [CoauthLock]) -> CoauthSwapOutcome {
        let current = coauthLocks(on: file)
        guard current.revision == expectedRevision else { return .conflict(current: current) }
        if !new.isEmpty, let wopi = lock(on: file) { return .wopiLocked(wopi) }
        coauth[file] = CoauthLockSet(locks: new, revision: expectedRevision + 1)
        return .swapped
    }

    public func heldLocks() -> [HeldLock] {
        Set(locks.keys).union(coauth.keys).sorted().flatMap { file in
            HeldLock.rows(file: file, wopi: lock(on: file), coauth: coauthLocks(on: file).locks)
        }
    }

    public func breakLocks(on file: ItemID) -> Int {
        let ended = (lock(on: file) == nil ? 0 : 1) + coauthLocks(on: file).locks.count
        locks[file] = nil
        if let table = coauth[file] { coauth[file] = CoauthLockSet(locks: [], revision: table.revision + 1) }
        return ended
    }
}
