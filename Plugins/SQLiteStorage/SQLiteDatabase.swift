import ChunkedVersionStore
import Foundation
public import GRDB
public import Logging
import NIOPosix
import WOPIStorage

/// One SQLite file that holds a whole small WOPI deployment: items and file content (``SQLiteStorage``),
/// WOPI locks (``SQLiteLockStore``), and the tables other stores add with their own ``SQLiteSchema``.
///
/// The database owns a GRDB `DatabasePool`, shared by every store built on it:
/// - **WAL mode** (set by `DatabasePool`): readers never block the writer nor each other, and a crash or kill
///   at any moment leaves the last committed state.
/// - **`PRAGMA synchronous = FULL`** by default: in WAL mode this fsyncs the log at each commit, so a save that
///   returned success survives a power loss, not only a process crash (`NORMAL` would keep the file consistent
///   but could lose the last commits). See ``Configuration/synchronous``.
/// - **`PRAGMA foreign_keys = ON`** (GRDB's default) and a **busy timeout** (``Configuration/busyTimeout``), so
///   several host processes can share one file; write transactions are `IMMEDIATE`.
///
/// ```swift
/// let database = try SQLiteDatabase(path: "/var/lib/wopi/wopi.sqlite")
/// let storage = try SQLiteStorage(database: database)
/// let locks = try SQLiteLockStore(database: database)
/// ```
///
/// ## Schema
///
/// Each store installs its tables with named migrations (GRDB `DatabaseMigrator`, recorded in
/// `grdb_migrations` as `storage.v1`, `locks.v1`, …). The migrations are the one source of the schema:
/// ``SQLiteStorage/schema`` (items, file versions, content chunks, read leases) and ``SQLiteLockStore/schema``
/// (locks) here, and the user and OAuth stores' schemas in `SQLiteServerStores`. `Docs/sqlite-storage.md`
/// describes the tables; `sqlite3 FILE .schema` prints those of a file.
///
/// A write streams its content into a new `writing` version in short transactions, then one transaction marks
/// it `complete` and points the file's `current_version_id` at it; the previous version is deleted at once
/// unless a reader holds a lease on it. See ``SQLiteStorage`` for the details.
///
/// ## Backing up a live database
///
/// A backup is the file and its ``chunkFolder`` (`wopi.sqlite-chunks`, the content chunks of 256 KiB and more).
/// Copying `wopi.sqlite` with `cp` while hosts run can produce a torn copy (and misses the `-wal` file). Call
/// ``backup(to:)`` from the host, or, holding the folder's backup lock, copy the file with SQLite and then the
/// folder; both are safe while the hosts keep reading and writing:
///
/// ```sh
/// flock -s /var/lib/wopi/wopi.sqlite-chunks/.backup-lock sh -c '
///   sqlite3 /var/lib/wopi/wopi.sqlite ".backup /backups/wopi-copy.sqlite" &&
///   cp -a /var/lib/wopi/wopi.sqlite-chunks /backups/wopi-copy.sqlite-chunks'
/// ```
///
/// Each gives a consistent snapshot as of one commit. Restore by stopping the hosts and replacing `wopi.sqlite`
/// and its chunk folder (and deleting any `wopi.sqlite-wal` / `-shm` next to it).
/// Check a file with `sqlite3 wopi.sqlite "PRAGMA integrity_check"` or ``integrityCheck()``.
///
/// Deleted content leaves free pages inside the file that later writes reuse; the file does not shrink by
/// itself. A `VACUUM INTO` copy is compacted, so restoring one (hosts stopped) is also how to reclaim space.
public final class SQLiteDatabase: Sendable {
    /// The GRDB connection pool, for stores that add their own tables with ``install(_:)``.
    public let pool: DatabasePool
    /// The path of the database file.
    public let path: String
    /// Where the database and its stores log.
    public let logger: Logger
    /// The read-only connection of each thread that runs a point read (``readStatement(_:_:)``).
    let inlineReaders: SQLiteThreadReaders

    /// Opens (creating if needed) the database file at `path`.
    ///
    /// Opening installs no tables: each store installs its own schema when it is created.
    ///
    /// - Throws: ``WOPIStorage/StorageError/Code/io`` when the file cannot be opened,
    ///   ``WOPIStorage/StorageError/Code/corrupt`` when it is not a SQLite database.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        var grdb = GRDB.Configuration()
        grdb.foreignKeysEnabled = true
        grdb.busyMode = .timeout(configuration.busyTimeout)
        grdb.maximumReaderCount = configuration.maximumReaderCount
        grdb.label = "wopikit.sqlite"
        do {
            self.pool = try DatabasePool(path: path, configuration: grdb)
            // Only the pool's single writer connection writes; GRDB sets it to NORMAL when it enables WAL.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(configuration.synchronous.rawValue)")
            }
        } catch {
            throw SQLiteErrorMapping.storageError(
                error, doing: "open the database at \(path); check the path and its permissions")
        }
        self.path = path
        self.logger = configuration.logger
        self.inlineReaders = SQLiteThreadReaders(path: path, label: grdb.label ?? "wopikit.sqlite")
    }

    /// Applies the migrations of `schema` that this file has not seen yet; idempotent.
    ///
    /// Safe to call from several processes opening the same file at once: a migration that loses the race is
    /// retried after the winner's commit.
    public func install(_ schema: SQLiteSchema) throws {
        do {
            try schema.apply(to: pool)
        } catch {
            // Another process may have run the same migration between our check and our transaction.
            logger.debug("Retrying the migrations of schema \(schema.name) after: \(error)")
            do {
                try schema.apply(to: pool)
            } catch {
                throw SQLiteErrorMapping.storageError(error, doing: "migrate the \(schema.name) tables")
            }
        }
    }

    /// Runs `body` in a read transaction; a database failure becomes a ``WOPIStorage/StorageError`` that names
    /// `action` (for example "read the user alice").
    public func read<T: Sendable>(
        _ action: @autoclosure () -> String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await SQLiteErrorMapping.perform(action()) { try await pool.read(body) }
    }

    /// Runs `body`, which runs one SQL statement, on the calling thread's read-only connection, without an
    /// explicit transaction; a database failure becomes a ``WOPIStorage/StorageError`` that names `action`.
    ///
    /// The request path's point reads (an item, a lock, a user, a share) use it. They are served from memory and
    /// take no lock a writer holds (WAL mode), so they run where the request runs, event loop included, with no
    /// thread hop (`Docs/architecture.md`, "Short metadata reads run where the request runs"): `body` must be one
    /// statement read by key, never a scan, a write or anything that waits. A single statement is atomic and
    /// reads the latest commit by itself, so no `BEGIN` and `COMMIT` surround it; a `body` that runs several
    /// statements must use ``read(_:_:)``. When SQLite answers `SQLITE_BUSY` (a WAL reset or recovery by another
    /// process), the read is retried on the pool, off the calling thread, where it may wait.
    public func readStatement<T: Sendable>(
        _ action: @autoclosure () -> String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await SQLiteErrorMapping.perform(action()) {
            do {
                return try inlineReaders.read(body)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return try await pool.unsafeRead(body)
            }
        }
    }

    /// Runs `body` in one `IMMEDIATE` write transaction, atomic across every process sharing the file; a
    /// database failure becomes a ``WOPIStorage/StorageError`` that names `action`.
    public func write<T: Sendable>(
        _ action: @autoclosure () -> String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await SQLiteErrorMapping.perform(action()) { try await pool.write(body) }
    }

    /// The migration identifiers recorded in the file, such as `storage.v1`.
    public func appliedMigrations() async throws -> [String] {
        try await SQLiteErrorMapping.perform("list the applied migrations") {
            try await pool.read { db in
                guard try db.tableExists("grdb_migrations") else { return [] }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            }
        }
    }

    /// Reads one row (`SELECT 1`): throws a ``WOPIStorage/StorageError`` when the file cannot be read. A readiness
    /// probe's check.
    public func ping() async throws {
        try await readStatement("answer a readiness probe") { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Runs `PRAGMA integrity_check` and returns its lines: `["ok"]` for a sound file.
    public func integrityCheck() async throws -> [String] {
        try await SQLiteErrorMapping.perform("check the database integrity") {
            try await pool.read { db in
                try String.fetchAll(db, sql: "PRAGMA integrity_check")
                    + String.fetchAll(db, sql: "PRAGMA foreign_key_check").map { "foreign key violation in \($0)" }
            }
        }
    }

    /// The folder of the chunk files of ``SQLiteStorage`` (its chunks of 256 KiB and more): beside the file, named
    /// after it, `wopi.sqlite-chunks` for `wopi.sqlite`. A backup copies it too (``backup(to:)``).
    public var chunkFolder: String { path + "-chunks" }

    /// Writes a consistent, compacted copy of the live database to a new file (`VACUUM INTO`), and a copy of its
    /// ``chunkFolder`` beside it (`destination` + `-chunks`), holding the folder's backup lock meanwhile, so that
    /// the copied folder holds every chunk file the copied database names (`Docs/sqlite-storage.md`, "Backing up
    /// a live database").
    ///
    /// - Parameter destination: the path of the copy; neither it nor its chunk folder may exist yet.
    public func backup(to destination: String) async throws {
        let folder = chunkFolder
        let threads = NIOThreadPool.singleton
        let lock = try await threads.runBlocking("lock \(folder) for a backup") {
            try ChunkFiles.lockForBackup(root: folder)
        }
        defer { ChunkFiles.unlock(lock) }
        try await SQLiteErrorMapping.perform("back up the database to \(destination)") {
            try await pool.vacuum(into: destination)
        }
        try await threads.runBlocking("copy \(folder) to \(destination)-chunks") {
            try ChunkFiles.copy(root: folder, to: destination + "-chunks")
        }
    }

    /// Closes every connection; later calls on this database or its stores fail.
    public func close() throws {
        inlineReaders.close()
        try pool.close()
    }
}
