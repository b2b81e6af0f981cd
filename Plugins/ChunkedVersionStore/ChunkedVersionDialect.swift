/// How a database runs the statements of the chunked-version engine: the one seam between ``ChunkedVersionStore``
/// and a plugin (SQLite on GRDB, PostgreSQL on postgres-nio).
///
/// A dialect runs statements and maps its database's errors to `StorageError`s; everything else (the SQL, the
/// batching of chunks, leases, staging and the switch to a new version, garbage collection) is the engine's. The
/// engine's SQL is the common subset of both databases; the few differences are the requirements below.
package protocol ChunkedVersionDialect: Sendable {
    /// Runs `statements` in order in one write transaction, checking the rows of each with
    /// ``SQLStatement/checked(_:)`` before running the next, and returns the rows of each; nothing is committed
    /// when one fails. Errors are `StorageError`s that name `action`.
    ///
    /// - Parameter durability: ``CommitDurability/deferred`` lets the commit return before it reaches the disk.
    func write(_ action: String, durability: CommitDurability, _ statements: [SQLStatement]) async throws
        -> [[SQLRow]]

    /// Runs one read-only statement, without holding a connection afterwards, and returns its rows.
    func read(_ action: String, _ statement: SQLStatement) async throws -> [SQLRow]

    /// What `INSERT` needs to set an identity column to a given value: `OVERRIDING SYSTEM VALUE` for a
    /// PostgreSQL `GENERATED ALWAYS` column, nothing for SQLite.
    var explicitIdentity: String { get }

    /// What a `SELECT` adds to lock its rows and skip those another transaction holds: `FOR UPDATE SKIP LOCKED`
    /// for PostgreSQL, where garbage collection runs beside writers; nothing for SQLite, which runs one writer at
    /// a time.
    var skipLocked: String { get }

    /// Where the chunks of at least one piece keep their bytes (files beside a SQLite database, or objects in a
    /// bucket), or `nil` when every chunk is stored as pieces in the database. A dialect whose plugin runs
    /// statements with ``SQLStatement/removesChunks`` hands their rows to ``ChunkBodyStore/removeCommitted(_:)``
    /// once they commit.
    var chunkBodies: (any ChunkBodyStore)? { get }
}

/// How durable a commit must be when it returns.
package enum CommitDurability: Sendable {
    /// As the database is configured (an acknowledged save must survive a power loss).
    case configured
    /// The commit may return before it reaches the disk: for the chunk batches of a save, which no file points to
    /// yet. The commit that switches the file to the new version is ``configured``, and its flush of the log makes
    /// every earlier commit durable too, these included (both SQLite's WAL and PostgreSQL's WAL are written in
    /// order).
    case deferred
}
