public import ChunkedVersionStore
import Foundation
import Logging
import PostgresNIO
public import WOPIStorage

/// A ``WOPIStorage/StorageBackend`` in a PostgreSQL database, shared by every host process of a deployment.
///
/// It follows ``PostgresPool``'s pool and the shape of `SQLiteStorage`:
///
/// **Content** is stored as content-defined chunks (CSPP Plus's `Zip` scheme for a zip, `FullFile` otherwise), once
/// per distinct `ChunkID`, in pieces of `Configuration.chunkSize` (256 KiB by default), written
/// `Configuration.chunksPerTransaction` pieces per transaction (multi-row `INSERT`s) as the body streams in and
/// read back 1 MiB per statement, so memory stays flat in file size. Versions, chunks, leases and garbage
/// collection are the engine `SQLiteStorage` uses too (`Plugins/ChunkedVersionStore`). The SHA-256 is computed
/// while the body streams in.
///
/// **Writes are atomic.** A write streams into a new `writing` version, then one transaction marks it complete
/// and switches the file to it (the file's row locked, so a conditional write compares and switches atomically).
/// A failure, or the host's death, at any point leaves the previous version whole; the chunks of an abandoned
/// write are deleted by ``collectGarbage()`` once it has stored nothing for
/// `Configuration.abandonedWriteTimeout`.
///
/// **Readers keep their version, across hosts.** Opening a file takes a *lease* on its current version (a row in
/// `version_leases`) in the transaction that reads the file's row `FOR SHARE`, so a concurrent switch on any host
/// waits for the lease to exist and then keeps the old version. A version that stops being current is deleted at
/// once only when no unexpired lease holds it; otherwise the last reader's release (or a later
/// ``collectGarbage()``) deletes it.
///
/// **Names** are stored in Unicode NFC and compared byte for byte; a unique index decides name races between
/// hosts. Moves take a transaction-scoped advisory lock, so two concurrent moves can never build a cycle.
///
/// **A lost database** makes operations fail with ``WOPIStorage/StorageError/Code/unavailable``; nothing
/// acknowledged is lost, and the next operation after the server returns succeeds.
public final class PostgresStorage: StorageBackend, RelocatingStorage {
    /// The database this storage lives in.
    public let database: PostgresPool
    let configuration: Configuration
    /// Versions, content chunks, read leases and garbage collection: the engine shared with `SQLiteStorage`.
    let versions: ChunkedVersionStore<PostgresVersionDialect>
    var logger: Logger { database.logger }

    /// The advisory lock that serialises moves (cycle checks) across hosts.
    static let moveLockKey: Int64 = 0x574F_5049_4D4F_5645  // "WOPIMOVE"

    private init(database: PostgresPool, configuration: Configuration, chunkBodies: (any ChunkBodyStore)?) {
        self.database = database
        self.configuration = configuration
        self.versions = ChunkedVersionStore(
            dialect: PostgresVersionDialect(database: database, chunkBodies: chunkBodies),
            configuration: configuration, logger: database.logger)
    }

    /// Opens the storage in `database`, installing or upgrading its tables (once, even when several hosts start
    /// together).
    public static func open(database: PostgresPool, configuration: Configuration = Configuration()) async throws
        -> PostgresStorage
    {
        try await open(database: database, configuration: configuration, chunkBodies: nil)
    }

    /// Opens the storage in `database` with the chunks of at least one piece in the body store `makeBodies` makes
    /// from the database's catalog (an object store), and the shorter ones as pieces in the database.
    package static func open(
        database: PostgresPool, configuration: Configuration = Configuration(),
        chunkBodies makeBodies: ((ChunkBodyCatalog) -> any ChunkBodyStore)?
    ) async throws -> PostgresStorage {
        try await database.install(schema)
        let catalog = ChunkBodyCatalog(PostgresVersionDialect(database: database, chunkBodies: nil))
        return PostgresStorage(database: database, configuration: configuration, chunkBodies: makeBodies?(catalog))
    }

    /// Runs `body` in one transaction with the SQL helpers.
    func transaction<T: Sendable>(
        _ action: @autoclosure () -> String, _ body: @escaping @Sendable (PostgresStorageSQL) async throws -> T
    ) async throws -> T {
        let logger = logger
        let removed = RemovedChunkRows()
        let value = try await database.transaction(action()) { connection in
            try await body(PostgresStorageSQL(connection: connection, logger: logger, removed: removed))
        }
        removed.committed(to: versions.dialect.chunkBodies)
        return value
    }

    public func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        let now = configuration.timestamp
        return try await transaction("find the root container of user \(user)") { sql in
            if let root = try await sql.root(of: user) { return root }
            try await sql.execute(
                """
                INSERT INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at)
                VALUES (\(ItemID.random().rawValue), NULL, \(user), 'container', \(user), \(now), \(now))
                ON CONFLICT DO NOTHING
                """)
            guard let root = try await sql.root(of: user) else {
                throw StorageError(.io, "The root container of user \(user) could not be created; retry.")
            }
            return root
        }
    }

    public func item(_ id: ItemID) async throws -> StorageItem {
        let logger = logger
        return try await database.withConnection("read item \(id)") { connection in
            try await PostgresStorageSQL(connection: connection, logger: logger).requireItem(id)
        }
    }

    public func children(of container: ItemID) async throws -> [StorageItem] {
        // One statement, no transaction: the container and its children in one round trip.
        let logger = logger
        return try await database.withConnection("list container \(container)") { connection in
            try await PostgresStorageSQL(connection: connection, logger: logger).children(of: container)
        }
    }

    public func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        let name = try StorageRules.normalised(name)
        let now = configuration.timestamp
        return try await transaction("create container \"\(name)\" in \(parent)") { sql in
            let parentContainer = try await sql.requireContainer(parent, lock: "UPDATE")
            try await Self.ensureFree(sql, name, in: parent)
            let id = ItemID.random()
            try await sql.execute(
                """
                INSERT INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at)
                VALUES (\(id.rawValue), \(parent.rawValue), \(parentContainer.ownerID), 'container', \(name), \(now),
                        \(now))
                """)
            try await sql.touch(parent, at: now)
            return try await sql.requireContainer(id)
        }
    }

    /// Moves `id` into `destination`, or renames it in its own container when that is `nil`: one transaction with
    /// the item's row locked, so a rename never undoes a move that another host made meanwhile.
    package func relocate(_ id: ItemID, into destination: ItemID?, newName: String?, replacing: Bool) async throws
        -> StorageItem
    {
        let requestedName = try newName.map(StorageRules.normalised)
        let now = configuration.timestamp
        let action = "move item \(id) to \(destination.map { "\($0)" } ?? "its container")"
        return try await transaction(action) { sql in
            try await sql.execute("SELECT pg_advisory_xact_lock(\(Self.moveLockKey))")
            let moving = try await sql.requireItem(id, lock: "UPDATE")
            let oldParent = try StorageRules.parentForMove(of: moving, renaming: destination == nil)
            let newParent = destination ?? oldParent
            let target = try await sql.requireContainer(newParent, lock: "UPDATE")
            let name = requestedName ?? moving.name
            let existing = try await sql.child(named: name, in: newParent)
            let intoItself = try await sql.isAncestor(id, of: newParent)
            if let replaced = try StorageRules.replacedByMove(
                moving, named: name, existing: existing, replacing: replacing, intoItself: intoItself)
            {
                let replacedVersions = try await self.versionIDs(sql, of: replaced.id)
                try await sql.execute("DELETE FROM items WHERE id = \(replaced.id.rawValue)")
                _ = try await sql.run(self.versions.discardStatements(versions: replacedVersions, now: now))
            }
            try await sql.execute(
                "UPDATE items SET parent_id = \(newParent.rawValue), name = \(name) WHERE id = \(id.rawValue)")
            if target.ownerID != moving.ownerID {
                try await sql.execute(
                    """
                    WITH RECURSIVE subtree(id) AS (
                      SELECT \(id.rawValue)::text
                      UNION SELECT items.id FROM items JOIN subtree ON items.parent_id = subtree.id)
                    UPDATE items SET owner_id = \(target.ownerID) WHERE id IN (SELECT id FROM subtree)
                    """)
            }
            try await sql.touch(oldParent, at: now)
            try await sql.touch(newParent, at: now)
            return try await sql.requireItem(id)
        }
    }

    public func delete(_ id: ItemID) async throws {
        let now = configuration.timestamp
        try await transaction("delete item \(id)") { sql in
            let current = try await sql.requireItem(id, lock: "UPDATE")
            let hasChildren = try await sql.hasChildren(id)
            let parent = try StorageRules.parentForDelete(of: current, hasChildren: hasChildren)
            let fileVersions = try await self.versionIDs(sql, of: id)
            try await sql.execute("DELETE FROM items WHERE id = \(id.rawValue)")
            _ = try await sql.run(self.versions.discardStatements(versions: fileVersions, now: now))
            try await sql.touch(parent, at: now)
        }
    }

    // MARK: - Helpers

    /// Throws ``WOPIStorage/StorageError/Code/nameConflict`` when `parent` has a child named `name`.
    static func ensureFree(_ sql: PostgresStorageSQL, _ name: String, in parent: ItemID) async throws {
        try StorageRules.ensureFree(await sql.child(named: name, in: parent), named: name)
    }

    /// The IDs of the versions of file `id` (none for a container), read before its row goes.
    func versionIDs(_ sql: PostgresStorageSQL, of id: ItemID) async throws -> [Int64] {
        try await sql.run([VersionHistorySQL.versionIDs(of: id)])[0].compactMap { $0.first?.integer }
    }
}
