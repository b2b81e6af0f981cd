public import Foundation
import Logging
import PostgresNIO
public import WOPIStorage

/// A ``WOPIStorage/LockStore`` in a ``PostgresPool``: every host process of a deployment shares the WOPI locks.
///
/// Locks live in the `locks` table (`file_id` primary key, `lock_id`, `expires_at` in seconds since 1970). A
/// compare-and-swap is **one statement**: an `INSERT … ON CONFLICT DO UPDATE … WHERE` that takes the row's lock,
/// re-checks the expected lock ID (or its expiry) and writes, so two swaps from the same expected state can never
/// both succeed, on one host or across several. A row whose `expires_at` has passed counts as no lock.
public final class PostgresLockStore: LockStore {
    /// The table of the lock store.
    public static let schema: PostgresSchema = {
        var schema = PostgresSchema(name: "locks")
        schema.registerMigration(
            "v1",
            statements: [
                """
                CREATE TABLE locks (
                  file_id TEXT PRIMARY KEY, lock_id TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL)
                """
            ])
        return schema
    }()

    /// The database the locks live in.
    public let database: PostgresPool
    private let now: @Sendable () -> Date

    private init(database: PostgresPool, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// Opens the lock store in `database`, installing its table.
    ///
    /// - Parameter now: the clock used to decide expiry; tests inject their own.
    public static func open(database: PostgresPool, now: @escaping @Sendable () -> Date = { Date() }) async throws
        -> PostgresLockStore
    {
        try await database.install(schema)
        return PostgresLockStore(database: database, now: now)
    }

    public func lock(on file: ItemID) async throws -> FileLock? {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        return try await database.withConnection("read the lock on \(file)") { connection in
            try await Self.current(connection, file, now: now, logger: logger)
        }
    }

    public func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        return try await database.withConnection("change the lock on \(file)") { connection in
            let swapped: Bool
            switch (expected, new) {
            case (nil, let new?):
                // Take the lock if there is none or it expired.
                swapped = try await Self.changed(
                    connection,
                    """
                    INSERT INTO locks (file_id, lock_id, expires_at)
                    VALUES (\(file.rawValue), \(new.id), \(new.expiresAt.timeIntervalSince1970))
                    ON CONFLICT (file_id) DO UPDATE SET lock_id = excluded.lock_id, expires_at = excluded.expires_at
                    WHERE locks.expires_at <= \(now)
                    RETURNING 1
                    """, logger: logger)
            case (let expected?, let new?):
                swapped = try await Self.changed(
                    connection,
                    """
                    UPDATE locks SET lock_id = \(new.id), expires_at = \(new.expiresAt.timeIntervalSince1970)
                    WHERE file_id = \(file.rawValue) AND lock_id = \(expected) AND expires_at > \(now)
                    RETURNING 1
                    """, logger: logger)
            case (let expected?, nil):
                swapped = try await Self.changed(
                    connection,
                    """
                    DELETE FROM locks
                    WHERE file_id = \(file.rawValue) AND lock_id = \(expected) AND expires_at > \(now)
                    RETURNING 1
                    """, logger: logger)
            case (nil, nil):
                // Unlocked stays unlocked: true exactly when there is no unexpired lock.
                swapped = try await Self.current(connection, file, now: now, logger: logger) == nil
            }
            if swapped { return .swapped }
            return .conflict(current: try await Self.current(connection, file, now: now, logger: logger))
        }
    }

    /// Deletes every expired lock row; optional housekeeping, since expired rows already count as absent.
    ///
    /// - Returns: how many rows were deleted.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        return try await database.withConnection("purge expired locks") { connection in
            var count = 0
            for try await _ in try await connection.query(
                "DELETE FROM locks WHERE expires_at <= \(now) RETURNING 1", logger: logger)
            {
                count += 1
            }
            return count
        }
    }

    private static func changed(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws
        -> Bool
    {
        var count = 0
        for try await _ in try await connection.query(query, logger: logger) { count += 1 }
        return count == 1
    }

    private static func current(_ connection: PostgresConnection, _ file: ItemID, now: Double, logger: Logger)
        async throws -> FileLock?
    {
        let rows = try await connection.query(
            "SELECT lock_id, expires_at FROM locks WHERE file_id = \(file.rawValue) AND expires_at > \(now)",
            logger: logger
        ).decode((String, Double).self)
        for try await (id, expiresAt) in rows {
            return FileLock(id: id, expiresAt: Date(timeIntervalSince1970: expiresAt))
        }
        return nil
    }
}
