public import ChunkedVersionStore
import Foundation
import GRDB
import Logging
public import WOPIStorage

/// A ``WOPIStorage/StorageBackend`` in one SQLite file: the embedded default of the example host.
///
/// A `final class` rather than an actor: it holds no mutable state of its own (everything lives in the
/// database), and an actor would serialise the reads that the WAL-mode pool runs in parallel. Writes are
/// serialised by SQLite itself, across processes too, so several hosts may share one file.
///
/// **Content** is stored as content-defined chunks (CSPP Plus's `Zip` scheme for a zip, `FullFile` otherwise), once
/// per distinct `ChunkID`, in pieces of `Configuration.chunkSize` (256 KiB by default), so reads and writes
/// stream: no layer holds a whole file in memory, and ``contentChunks(of:)`` lists a file's chunks without
/// reading it. The SHA-256 is computed while the body streams in.
/// Versions, chunks, leases and garbage collection are the engine `PostgresStorage` uses too
/// (`Plugins/ChunkedVersionStore`), run through GRDB's queues.
///
/// **Writes are atomic.** A write streams into a new `writing` version in short transactions
/// (`Configuration.chunksPerTransaction` chunks each), then one transaction marks the version complete and
/// switches the file to it. A failure, crash or kill at any point leaves the previous version whole; the
/// chunks of an abandoned write are deleted when it fails, or, after a crash, by ``collectGarbage()`` once the
/// write has stored nothing for `Configuration.abandonedWriteTimeout` (it runs when the storage opens).
///
/// **Readers keep their version.** Opening a file for reading takes a *lease* on its current version (a row
/// in `version_leases`, renewed while the reader makes progress), in the same transaction that picks the
/// version. A version that stops being current is deleted right away only when no unexpired lease holds it;
/// otherwise the last reader's release (or a later ``collectGarbage()``) deletes it. Leases live in the
/// database, so this holds across processes; a reader that stalls longer than
/// `Configuration.readLeaseDuration` may find its version gone and fails with ``WOPIStorage/StorageError/Code/io``.
///
/// **Versions** are the IDs of `file_versions` rows (`AUTOINCREMENT`), so a version string never repeats.
///
/// **Names** are stored in Unicode NFC and then compared byte for byte (case-sensitive): names that differ
/// only in normalisation are the same name, matching Swift's `String` equality; otherwise matching is exact.
///
/// Moves across containers (and between users' trees, which changes the owner of the moved subtree) are
/// supported. See ``SQLiteDatabase`` for the schema.
public final class SQLiteStorage: StorageBackend, RelocatingStorage {
    /// The database this storage lives in.
    public let database: SQLiteDatabase
    let configuration: Configuration
    let logger: Logger
    /// Versions, content chunks, read leases and garbage collection: the engine shared with `PostgresStorage`.
    let versions: ChunkedVersionStore<SQLiteVersionDialect>
    var pool: DatabasePool { database.pool }

    /// Opens the storage in `database`, installing or upgrading its tables and collecting the garbage of
    /// writes that were interrupted by a crash.
    public convenience init(database: SQLiteDatabase, configuration: Configuration = Configuration()) throws {
        try self.init(database: database, configuration: configuration, chunkBodies: nil)
    }

    /// Opens the storage in `database` with the chunks of at least one piece in the body store `makeBodies` makes
    /// from the database's catalog (an object store), or, when `nil`, in files beside the database.
    package init(
        database: SQLiteDatabase, configuration: Configuration = Configuration(),
        chunkBodies makeBodies: ((ChunkBodyCatalog) -> any ChunkBodyStore)?
    ) throws {
        self.database = database
        self.configuration = configuration
        self.logger = database.logger
        let pool = database.pool
        let bodies =
            makeBodies?(ChunkBodyCatalog(SQLiteVersionDialect(pool: pool, chunkBodies: nil)))
            ?? ChunkFiles(root: database.chunkFolder) { id in try Self.storedFiles(pool, of: id) }
        self.versions = ChunkedVersionStore(
            dialect: SQLiteVersionDialect(pool: pool, chunkBodies: bodies), configuration: configuration,
            logger: database.logger)
        try database.install(Self.schema)
        try collectGarbageNow()
    }

    public func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        try await perform("find the root container of user \(user)") {
            if let root = try await pool.read({ db in try SQLiteStorageSQL.root(db, of: user) }) { return root }
            let now = configuration.timestamp
            return try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at)
                        VALUES (?, NULL, ?, 'container', ?, ?, ?)
                        """, arguments: [ItemID.random().rawValue, user, user, now, now])
                guard let root = try SQLiteStorageSQL.root(db, of: user) else {
                    throw StorageError(.io, "The root container of user \(user) could not be created; retry.")
                }
                return root
            }
        }
    }

    public func item(_ id: ItemID) async throws -> StorageItem {
        // One statement: no transaction needed (SQLiteDatabase.readStatement).
        try await database.readStatement("read item \(id)") { db in try SQLiteStorageSQL.requireItem(db, id) }
    }

    public func children(of container: ItemID) async throws -> [StorageItem] {
        // One statement (the container and its children), on the pool: a listing is a scan, not a point read.
        try await perform("list container \(container)") {
            try await pool.unsafeRead { db in try SQLiteStorageSQL.children(db, of: container) }
        }
    }

    public func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        let name = try StorageRules.normalised(name)
        let now = configuration.timestamp
        return try await perform("create container \"\(name)\" in \(parent)") {
            try await pool.write { db in
                let parentContainer = try SQLiteStorageSQL.requireContainer(db, parent)
                try Self.ensureFree(db, name, in: parent)
                let id = ItemID.random()
                try db.execute(
                    sql: """
                        INSERT INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at)
                        VALUES (?, ?, ?, 'container', ?, ?, ?)
                        """, arguments: [id.rawValue, parent.rawValue, parentContainer.ownerID, name, now, now])
                try SQLiteStorageSQL.touch(db, parent, at: now)
                return try SQLiteStorageSQL.requireContainer(db, id)
            }
        }
    }

    /// Moves `id` into `destination`, or renames it in its own container when that is `nil`: one transaction, so a
    /// rename never undoes a move that another process made meanwhile.
    package func relocate(_ id: ItemID, into destination: ItemID?, newName: String?, replacing: Bool) async throws
        -> StorageItem
    {
        let requestedName = try newName.map(StorageRules.normalised)
        let now = configuration.timestamp
        return try await perform("move item \(id) to \(destination.map { "\($0)" } ?? "its container")") {
            try await pool.write { [versions] db in
                let moving = try SQLiteStorageSQL.requireItem(db, id)
                let oldParent = try StorageRules.parentForMove(of: moving, renaming: destination == nil)
                let newParent = destination ?? oldParent
                let target = try SQLiteStorageSQL.requireContainer(db, newParent)
                let name = requestedName ?? moving.name
                if let replaced = try StorageRules.replacedByMove(
                    moving, named: name, existing: SQLiteStorageSQL.child(db, named: name, in: newParent),
                    replacing: replacing, intoItself: SQLiteStorageSQL.isAncestor(db, id, of: newParent))
                {
                    let replacedVersions = try Self.versionIDs(db, versions, of: replaced.id)
                    try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [replaced.id.rawValue])
                    _ = try versions.dialect.run(db, versions.discardStatements(versions: replacedVersions, now: now))
                }
                try db.execute(
                    sql: "UPDATE items SET parent_id = ?, name = ? WHERE id = ?",
                    arguments: [newParent.rawValue, name, id.rawValue])
                if target.ownerID != moving.ownerID {
                    try db.execute(
                        sql: """
                            WITH RECURSIVE subtree(id) AS (
                              SELECT ? UNION SELECT items.id FROM items JOIN subtree ON items.parent_id = subtree.id)
                            UPDATE items SET owner_id = ? WHERE id IN subtree
                            """, arguments: [id.rawValue, target.ownerID])
                }
                try SQLiteStorageSQL.touch(db, oldParent, at: now)
                try SQLiteStorageSQL.touch(db, newParent, at: now)
                return try SQLiteStorageSQL.requireItem(db, id)
            }
        }
    }

    public func delete(_ id: ItemID) async throws {
        let now = configuration.timestamp
        try await perform("delete item \(id)") {
            try await pool.write { [versions] db in
                let current = try SQLiteStorageSQL.requireItem(db, id)
                let parent = try StorageRules.parentForDelete(
                    of: current, hasChildren: SQLiteStorageSQL.hasChildren(db, id))
                let fileVersions = try Self.versionIDs(db, versions, of: id)
                try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [id.rawValue])
                _ = try versions.dialect.run(db, versions.discardStatements(versions: fileVersions, now: now))
                try SQLiteStorageSQL.touch(db, parent, at: now)
            }
        }
    }

    // MARK: - Helpers

    /// Runs `body`, mapping database errors to storage errors.
    func perform<T>(_ action: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        try await SQLiteErrorMapping.perform(action(), body)
    }

    /// Throws ``WOPIStorage/StorageError/Code/nameConflict`` when `parent` has a child named `name`.
    static func ensureFree(_ db: Database, _ name: String, in parent: ItemID) throws {
        try StorageRules.ensureFree(SQLiteStorageSQL.child(db, named: name, in: parent), named: name)
    }

    /// The IDs of the versions of file `id` (none for a container), read before its row goes.
    static func versionIDs(_ db: Database, _ versions: ChunkedVersionStore<SQLiteVersionDialect>, of id: ItemID)
        throws -> [Int64]
    {
        try versions.dialect.run(db, VersionHistorySQL.versionIDs(of: id)).compactMap { $0.first?.integer }
    }

    /// What the database keeps of the chunk files of version `versionID` (``ChunkFiles``), in one snapshot: `nil`
    /// while it is being written, else the staging indexes of the chunk files a `chunks` row names.
    private static func storedFiles(_ pool: DatabasePool, of versionID: Int64) throws -> Set<Int64>? {
        try pool.read { db in
            ChunkSQL.storedBodies(try SQLiteVersionDialect.rows(db, ChunkSQL.storedBodies(of: versionID)))
        }
    }
}
