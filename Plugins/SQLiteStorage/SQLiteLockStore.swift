public import Foundation
import GRDB
public import WOPIStorage

/// A ``WOPIStorage/LockStore`` in a ``SQLiteDatabase``, so that every host process sharing the file shares
/// the WOPI locks.
///
/// Locks live in the `locks` table (`file_id` primary key, `lock_id`, `expires_at` in seconds since 1970). A
/// compare-and-swap is one `IMMEDIATE` write transaction, so two swaps from the same expected state can never
/// both succeed, in one process or across several. A row whose `expires_at` has passed counts as no lock and
/// is deleted when next touched.
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
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO locks (file_id, lock_id, expires_at) VALUES (?, ?, ?)
                            ON CONFLICT (file_id) DO UPDATE SET lock_id = excluded.lock_id,
                                                                expires_at = excluded.expires_at
                            """
                    ).execute(arguments: [file.rawValue, new.id, new.expiresAt.timeIntervalSince1970])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM locks WHERE file_id = ?").execute(
                        arguments: [file.rawValue])
                }
                return .swapped
            }
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
                db.cachedStatement(sql: "SELECT lock_id, expires_at FROM locks WHERE file_id = ? AND expires_at > ?"),
                arguments: [file.rawValue, now])
        else { return nil }
        return FileLock(id: row["lock_id"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }
}
