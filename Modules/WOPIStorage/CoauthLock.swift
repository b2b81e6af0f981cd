public import Foundation

/// The kind of a co-authoring lock (CSPP Plus, `X-WOPI-CoauthLockType`).
public enum CoauthLockType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Any number of clients may hold one at a time.
    case coauth = "Coauth"
    /// At most one client holds one at a time, and while it does only that client writes.
    case coauthExclusive = "CoauthExclusive"
}

/// One row of a file's coauth table: a co-authoring lock held by one client session, named by the client's
/// `CoauthLockId` (not by a user: one user may run several sessions).
public struct CoauthLock: Sendable, Hashable, Codable {
    /// The client's `CoauthLockId`, compared byte for byte.
    public var id: String
    /// `Coauth` or `CoauthExclusive`.
    public var type: CoauthLockType
    /// The client's opaque metadata (up to 4 KB), returned in the coauth table.
    public var metadata: String
    /// The friendly name of the user whose session took the lock (`UserFriendlyName` in the table).
    public var holder: String
    /// When the lock was taken (`CoauthLockTime`); a refresh keeps it.
    public var takenAt: Date
    /// When the lock lapses unless refreshed; an expired lock counts as no lock.
    public var expiresAt: Date

    /// Creates a coauth lock value.
    public init(
        id: String, type: CoauthLockType, metadata: String, holder: String, takenAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.type = type
        self.metadata = metadata
        self.holder = holder
        self.takenAt = takenAt
        self.expiresAt = expiresAt
    }
}

/// The unexpired coauth locks on one file as a store read them, with the store's revision of the file's coauth
/// table, which ``LockStore/compareAndSwapCoauth(file:expectedRevision:new:)`` compares.
public struct CoauthLockSet: Sendable, Hashable {
    /// The unexpired locks, ordered by ID.
    public var locks: [CoauthLock]
    /// The store's count of writes to this file's coauth table (`0` when never written). It moves on every
    /// write, refreshes included; it is not the protocol's `CoauthTableVersion`.
    public var revision: Int64

    /// Creates a set from `locks` (any order; expired ones are kept as given).
    public init(locks: [CoauthLock], revision: Int64) {
        self.locks = locks.sorted { $0.id < $1.id }
        self.revision = revision
    }

    /// No locks, never written.
    public static let empty = CoauthLockSet(locks: [], revision: 0)
}

/// The outcome of ``LockStore/compareAndSwapCoauth(file:expectedRevision:new:)``.
public enum CoauthSwapOutcome: Sendable, Hashable {
    /// The coauth table was at the expected revision and now holds the new locks.
    case swapped
    /// Another write came first; nothing changed. Carries the table as it is now.
    case conflict(current: CoauthLockSet)
    /// An unexpired WOPI lock is held, which excludes every coauth lock; nothing changed.
    case wopiLocked(FileLock)
}

/// A lock as an operator sees it: ``LockStore/heldLocks()`` lists them, ``LockStore/breakLocks(on:)`` ends them.
public struct HeldLock: Sendable, Hashable, Codable {
    /// The lock's mechanism.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A WOPI lock (Lock, RefreshLock, ...).
        case wopi = "WOPI"
        /// A shared co-authoring lock.
        case coauth = "Coauth"
        /// An exclusive co-authoring lock.
        case coauthExclusive = "CoauthExclusive"
    }

    /// The locked file.
    public var file: ItemID
    /// WOPI, Coauth or CoauthExclusive.
    public var kind: Kind
    /// The lock ID (`X-WOPI-Lock`) or the `CoauthLockId`.
    public var id: String
    /// Who took it, when the store knows.
    public var holder: String?
    /// When it was taken, when the store knows.
    public var takenAt: Date?
    /// When it lapses unless refreshed.
    public var expiresAt: Date

    /// Creates a listing row.
    public init(file: ItemID, kind: Kind, id: String, holder: String?, takenAt: Date?, expiresAt: Date) {
        self.file = file
        self.kind = kind
        self.id = id
        self.holder = holder
        self.takenAt = takenAt
        self.expiresAt = expiresAt
    }

    /// The rows of a WOPI lock and a coauth table, for a store's listing.
    package static func rows(file: ItemID, wopi: FileLock?, coauth: [CoauthLock]) -> [HeldLock] {
        var rows: [HeldLock] = []
        if let wopi {
            rows.append(
                HeldLock(
                    file: file, kind: .wopi, id: wopi.id, holder: wopi.holder, takenAt: wopi.takenAt,
                    expiresAt: wopi.expiresAt))
        }
        for lock in coauth {
            rows.append(
                HeldLock(
                    file: file, kind: lock.type == .coauth ? .coauth : .coauthExclusive, id: lock.id,
                    holder: lock.holder, takenAt: lock.takenAt, expiresAt: lock.expiresAt))
        }
        return rows
    }
}

/// How SQL stores keep a file's coauth table: one JSON text per file, dates as seconds since 1970.
package enum CoauthLockCoding {
    /// The JSON text of `locks`.
    package static func encode(_ locks: [CoauthLock]) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(locks), as: UTF8.self)
    }

    /// The unexpired locks of a JSON text written by ``encode(_:)``.
    package static func decode(_ text: String, unexpiredAt now: Date) throws -> [CoauthLock] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode([CoauthLock].self, from: Data(text.utf8)).filter { $0.expiresAt > now }
    }
}
