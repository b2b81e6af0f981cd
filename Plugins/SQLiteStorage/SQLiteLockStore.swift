public import Foundation
import GRDB
public import WOPIStorage

/// A ``WOPIStorage/LockStore`` in a ``SQLiteDatabase``, so that every host process sharing the file shares
/// the WOPI and coauth locks.
///
/// WOPI locks live in the `locks` table (`file_id` primary key, `lock_id`, `expires_at` in seconds since 1970,
/// and since `locks.v2` the `holder`, `visible_name` and `taken_at` of the lock). A file's coauth table is one
/// row of `coauth_locks` (`file_id`, `revision`, `locks` as JSON). A compare-and-swap of either is one
/// `IMMEDIATE` write transaction that also reads the other half, so two swaps from the same expected state can
/// never both succeed and a WOPI lock never coexists with coauth locks, in one process or across several. A lock
/// whose expiry has passed counts as no lock.
public final class SQLiteLockStore: LockStore {
    /// The tables of the lock store.
    public static let schema: SQLiteSchema = {
        var schema = SQLiteSchema(name: "locks")
        schema.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE locks (
                      file_id TEXT PRIMARY KEY NOT NULL,
                      lock_id TEXT NOT NULL,
                      expires_at REAL NOT NULL
                    )
                    """)
        }
        schema.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE locks ADD COLUMN holder TEXT;
                    ALTER TABLE locks ADD COLUMN visible_name TEXT;
                    ALTER TABLE locks ADD COLUMN taken_at REAL;
                    CREATE TABLE coauth_locks (
                      file_id TEXT PRIMARY KEY NOT NULL,
                      revision INTEGER NOT NULL,
                      locks TEXT NOT NULL
                    );
                    """)
        }
        return schema
    }()

    /// The database the locks live in.
    public let database: SQLiteDatabase
    private let now: @Sendable () -> Date

    /// Opens the lock store in `database`, installing or upgrading its table.
    ///
    /// - Parameter now: the clock used to decide expiry; tests inject their own.
    public init(database: SQLiteDatabase, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.database = database
        self.now = now
        try database.install(Self.schema)
    }

    public func lock(on file: ItemID) async throws -> FileLock? {
        let now = now().timeIntervalSince1970
        return try await database.readStatement("read the lock on \(file)") { db in
            try Self.current(db, file, now: now)
        }
    }

    public func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome {
        let now = now().timeIntervalSince1970
        return try await SQLiteErrorMapping.perform("change the lock on \(file)") {
            try await database.pool.write { db in
                let current = try Self.current(db, file, now: now)
                guard current?.id == expected else { return .conflict(current: current) }
                if let new {
                    guard try Self.coauth(db, file, now: now).locks.isEmpty else { return .coauthLocked }
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO locks (file_id, lock_id, expires_at, holder, visible_name, taken_at)
                            VALUES (?, ?, ?, ?, ?, ?)
                            ON CONFLICT (file_id) DO UPDATE SET lock_id = excluded.lock_id,
                              expires_at = excluded.expires_at, holder = excluded.holder,
                              visible_name = excluded.visible_name, taken_at = excluded.taken_at
                            """
                    ).execute(arguments: [
                        file.rawValue, new.id, new.expiresAt.timeIntervalSince1970, new.holder, new.visibleName,
                        new.takenAt?.timeIntervalSince1970,
                    ])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM locks WHERE file_id = ?").execute(
                        arguments: [file.rawValue])
                }
                return .swapped
            }
        }
    }

    public func coauthLocks(on file: ItemID) async throws -> CoauthLockSet {
        let now = now().timeIntervalSince1970
        return try await database.readStatement("read the coauth locks on \(file)") { db in
            try Self.coauth(db, file, now: now)
        }
    }

    public func compareAndSwapCoauth(file: ItemID, expectedRevision: Int64, new: [CoauthLock]) async throws
        -> CoauthSwapOutcome
    {
        let now = now().timeIntervalSince1970
        let text = try CoauthLockCoding.encode(new)
        return try await database.write("change the coauth locks on \(file)") { db in
            let current = try Self.coauth(db, file, now: now)
            guard current.revision == expectedRevision else { return .conflict(current: current) }
            if !new.isEmpty, let wopi = try Self.current(db, file, now: now) { return .wopiLocked(wopi) }
            try Self.writeCoauth(db, file, revision: expectedRevision + 1, text: text)
            return .swapped
        }
    }

    public func heldLocks() async throws -> [HeldLock] {
        let now = now().timeIntervalSince1970
        return try await database.read("list the held locks") { db in
            let files = try String.fetchAll(
                db, sql: "SELECT file_id FROM locks WHERE expires_at > ? UNION SELECT file_id FROM coauth_locks",
                arguments: [now])
            return try files.compactMap(ItemID.init(rawValue:)).sorted().flatMap { file in
                HeldLock.rows(
                    file: file, wopi: try Self.current(db, file, now: now),
                    coauth: try Self.coauth(db, file, now: now).locks)
            }
        }
    }

    public func breakLocks(on file: ItemID) async throws -> Int {
        let now = now().timeIntervalSince1970
        return try await database.write("break the locks on \(file)") { db in
            let wopi = try Self.current(db, file, now: now)
            let coauth = try Self.coauth(db, file, now: now)
            try db.execute(sql: "DELETE FROM locks WHERE file_id = ?", arguments: [file.rawValue])
            if coauth.revision > 0 { try Self.writeCoauth(db, file, revision: coauth.revision + 1, text: "[]") }
            return (wopi == nil ? 0 : 1) + coauth.locks.count
        }
    }

    /// Deletes every expired lock row; optional housekeeping, since expired rows already count as absent.
    ///
    /// - Returns: how many rows were deleted.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        let now = now().timeIntervalSince1970
        return try await SQLiteErrorMapping.perform("purge expired locks") {
            try await database.pool.write { db in
                try db.execute(sql: "DELETE FROM locks WHERE expires_at <= ?", arguments: [now])
                return db.changesCount
            }
        }
    }

    private static func current(_ db: Database, _ file: ItemID, now: Double) throws -> FileLock? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT lock_id, expires_at, holder, visible_name, taken_at FROM locks
                        WHERE file_id = ? AND expires_at > ?
                        """),
                arguments: [file.rawValue, now])
        else { return nil }
        let takenAt: Double? = row["taken_at"]
        return FileLock(
            id: row["lock_id"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]), holder: row["holder"],
            visibleName: row["visible_name"], takenAt: takenAt.map(Date.init(timeIntervalSince1970:)))
    }

    private static func coauth(_ db: Database, _ file: ItemID, now: Double) throws -> CoauthLockSet {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT revision, locks FROM coauth_locks WHERE file_id = ?"),
                arguments: [file.rawValue])
        else { return .empty }
        let locks = try CoauthLockCoding.decode(row["locks"], unexpiredAt: Date(timeIntervalSince1970: now))
        return CoauthLockSet(locks: locks, revision: row["revision"])
    }

    private static func writeCoauth(_ db: Database, _ file: ItemID, revision: Int64, text: String) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO coauth_locks (file_id, revision, locks) VALUES (?, ?, ?)
                ON CONFLICT (file_id) DO UPDATE SET revision = excluded.revision, locks = excluded.locks
                """
        ).execute(arguments: [file.rawValue, revision, text])
    }
}
