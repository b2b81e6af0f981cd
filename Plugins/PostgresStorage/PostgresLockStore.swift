public import Foundation
import Logging
import PostgresNIO
public import WOPIStorage

/// A ``WOPIStorage/LockStore`` in a ``PostgresPool``: every host process of a deployment shares the WOPI and
/// coauth locks.
///
/// WOPI locks live in the `locks` table (`file_id` primary key, `lock_id`, `expires_at` in seconds since 1970,
/// and since `locks.v2` `holder`, `visible_name` and `taken_at`); a file's coauth table is one row of
/// `coauth_locks` (`file_id`, `revision`, `locks` as JSON). Every swap is **one transaction** that first takes a
/// transaction-scoped advisory lock keyed by the file, then reads both halves, compares and writes: two swaps on
/// one file, from any hosts, run one after the other, so two swaps from the same expected state can never both
/// succeed and a WOPI lock never coexists with coauth locks. A lock whose expiry has passed counts as no lock.
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
        schema.registerMigration(
            "v2",
            statements: [
                "ALTER TABLE locks ADD COLUMN holder TEXT",
                "ALTER TABLE locks ADD COLUMN visible_name TEXT",
                "ALTER TABLE locks ADD COLUMN taken_at DOUBLE PRECISION",
                "CREATE TABLE coauth_locks (file_id TEXT PRIMARY KEY, revision BIGINT NOT NULL, locks TEXT NOT NULL)",
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
        return try await database.transaction("change the lock on \(file)") { connection in
            try await Self.serialize(connection, file, logger: logger)
            let current = try await Self.current(connection, file, now: now, logger: logger)
            guard current?.id == expected else { return .conflict(current: current) }
            guard let new else {
                try await connection.query("DELETE FROM locks WHERE file_id = \(file.rawValue)", logger: logger)
                return .swapped
            }
            let coauth = try await Self.coauth(connection, file, now: now, logger: logger)
            guard coauth.locks.isEmpty else { return .coauthLocked }
            try await connection.query(
                """
                INSERT INTO locks (file_id, lock_id, expires_at, holder, visible_name, taken_at)
                VALUES (\(file.rawValue), \(new.id), \(new.expiresAt.timeIntervalSince1970), \(new.holder),
                        \(new.visibleName), \(new.takenAt?.timeIntervalSince1970))
                ON CONFLICT (file_id) DO UPDATE SET lock_id = excluded.lock_id, expires_at = excluded.expires_at,
                  holder = excluded.holder, visible_name = excluded.visible_name, taken_at = excluded.taken_at
                """, logger: logger)
            return .swapped
        }
    }

    public func coauthLocks(on file: ItemID) async throws -> CoauthLockSet {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        return try await database.withConnection("read the coauth locks on \(file)") { connection in
            try await Self.coauth(connection, file, now: now, logger: logger)
        }
    }

    public func compareAndSwapCoauth(file: ItemID, expectedRevision: Int64, new: [CoauthLock]) async throws
        -> CoauthSwapOutcome
    {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        let text = try CoauthLockCoding.encode(new)
        return try await database.transaction("change the coauth locks on \(file)") { connection in
            try await Self.serialize(connection, file, logger: logger)
            let current = try await Self.coauth(connection, file, now: now, logger: logger)
            guard current.revision == expectedRevision else { return .conflict(current: current) }
            if !new.isEmpty, let wopi = try await Self.current(connection, file, now: now, logger: logger) {
                return .wopiLocked(wopi)
            }
            try await Self.writeCoauth(connection, file, revision: expectedRevision + 1, text: text, logger: logger)
            return .swapped
        }
    }

    public func heldLocks() async throws -> [HeldLock] {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        return try await database.transaction("list the held locks") { connection in
            var files: [ItemID] = []
            for try await id in try await connection.query(
                "SELECT file_id FROM locks WHERE expires_at > \(now) UNION SELECT file_id FROM coauth_locks",
                logger: logger
            ).decode(String.self) {
                if let file = ItemID(rawValue: id) { files.append(file) }
            }
            var rows: [HeldLock] = []
            for file in files.sorted() {
                rows += HeldLock.rows(
                    file: file, wopi: try await Self.current(connection, file, now: now, logger: logger),
                    coauth: try await Self.coauth(connection, file, now: now, logger: logger).locks)
            }
            return rows
        }
    }

    public func breakLocks(on file: ItemID) async throws -> Int {
        let now = now().timeIntervalSince1970
        let logger = database.logger
        return try await database.transaction("break the locks on \(file)") { connection in
            try await Self.serialize(connection, file, logger: logger)
            let wopi = try await Self.current(connection, file, now: now, logger: logger)
            let coauth = try await Self.coauth(connection, file, now: now, logger: logger)
            try await connection.query("DELETE FROM locks WHERE file_id = \(file.rawValue)", logger: logger)
            if coauth.revision > 0 {
                try await Self.writeCoauth(connection, file, revision: coauth.revision + 1, text: "[]", logger: logger)
            }
            return (wopi == nil ? 0 : 1) + coauth.locks.count
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

    /// Takes the transaction-scoped advisory lock of `file`'s locks, so swaps on one file run one at a time.
    private static func serialize(_ connection: PostgresConnection, _ file: ItemID, logger: Logger) async throws {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtextextended(\("wopikit.locks:" + file.rawValue), 0))", logger: logger)
    }

    private static func current(_ connection: PostgresConnection, _ file: ItemID, now: Double, logger: Logger)
        async throws -> FileLock?
    {
        let rows = try await connection.query(
            """
            SELECT lock_id, expires_at, holder, visible_name, taken_at FROM locks
            WHERE file_id = \(file.rawValue) AND expires_at > \(now)
            """,
            logger: logger
        ).decode((String, Double, String?, String?, Double?).self)
        for try await (id, expiresAt, holder, visibleName, takenAt) in rows {
            return FileLock(
                id: id, expiresAt: Date(timeIntervalSince1970: expiresAt), holder: holder, visibleName: visibleName,
                takenAt: takenAt.map(Date.init(timeIntervalSince1970:)))
        }
        return nil
    }

    private static func coauth(_ connection: PostgresConnection, _ file: ItemID, now: Double, logger: Logger)
        async throws -> CoauthLockSet
    {
        let rows = try await connection.query(
            "SELECT revision, locks FROM coauth_locks WHERE file_id = \(file.rawValue)", logger: logger
        ).decode((Int64, String).self)
        for try await (revision, text) in rows {
            let locks = try CoauthLockCoding.decode(text, unexpiredAt: Date(timeIntervalSince1970: now))
            return CoauthLockSet(locks: locks, revision: revision)
        }
        return .empty
    }

    private static func writeCoauth(
        _ connection: PostgresConnection, _ file: ItemID, revision: Int64, text: String, logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO coauth_locks (file_id, revision, locks) VALUES (\(file.rawValue), \(revision), \(text))
            ON CONFLICT (file_id) DO UPDATE SET revision = excluded.revision, locks = excluded.locks
            """, logger: logger)
    }
}
