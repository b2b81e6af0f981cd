package import NIOCore

/// Where the chunks of at least one piece keep their bytes outside the database: ``ChunkFiles`` (files beside a
/// SQLite database) or an object store (`S3ChunkBodies`, objects in an S3 bucket that every host shares). The
/// database stays the index: a `chunks` row with `in_file = 1` says that the chunk's bytes are the body
/// ``PieceKey`` names (the version that wrote it first and the chunk's index there; its ID is known only once its
/// last byte went by), and a dialect without a body store keeps every chunk as pieces in the database.
///
/// The engine's rules, which every implementation keeps:
/// - A body is complete and durable before ``ChunkBodyWriter/store(_:ending:)`` returns for its chunk, so a row
///   never names a missing or partial body: the row is inserted after that.
/// - A body goes when the transaction that deleted its row committed (``removeCommitted(_:)``), or when garbage
///   collection (``removeAllUnlisted()``) finds it named by no row of a version no longer being written.
package protocol ChunkBodyStore: Sendable {
    /// Where the bodies are, for logs and errors: a folder, or `s3://bucket/prefix`.
    var location: String { get }

    /// The most bytes of a body one read asks for: each read costs a round trip, so a store far away (a bucket)
    /// reads more at a time than files on the host do. A reader holds about two reads' worth.
    var readSize: Int64 { get }

    /// The writer of the bodies of version `versionID`, which one save uses for its whole body.
    func writer(for versionID: Int64) -> any ChunkBodyWriter

    /// The bytes `range` of body `key`, or `nil` when it is gone or shorter (its version was deleted while a
    /// stalled reader held no lease).
    func read(_ key: PieceKey, _ range: Range<Int64>) async throws -> ByteBuffer?

    /// Removes the bodies of the chunks whose rows `rows` returned (rows of a statement with
    /// ``SQLStatement/removesChunks``: staging version, staging index, `in_file`), once their deletion committed.
    /// It must not block (it may run on a database's writer): it starts the removal, and garbage collection
    /// removes what it missed.
    func removeCommitted(_ rows: [SQLRow])

    /// Removes the bodies of version `versionID` that no `chunks` row names, unless it is still being written;
    /// returns how many it removed.
    @discardableResult
    func removeUnlisted(of versionID: Int64) async throws -> Int

    /// Removes every body no `chunks` row names, of versions no longer being written; returns how many.
    @discardableResult
    func removeAllUnlisted() async throws -> Int
}

/// Writes the chunk bodies of one save, as the pieces stream in: the engine calls it one batch at a time.
package protocol ChunkBodyWriter: Sendable {
    /// Appends `pieces` (of chunks stored as bodies, in order) to their bodies, and completes the bodies of the
    /// chunks `ending`: each of those is durable when this returns.
    func store(_ pieces: [ChunkSQL.Piece], ending: [Int]) async throws

    /// Drops the body being written, if any (the write failed; no row names it).
    func abandon() async

    /// Removes the bodies of chunks `chunkIndexes`, which no row names (they lost to a copy stored before).
    func remove(_ chunkIndexes: [Int]) async throws
}

/// What the database keeps of the chunk bodies of a version, read in one statement (one snapshot): for an
/// implementation of ``ChunkBodyStore`` that holds no database connection of its own.
package struct ChunkBodyCatalog: Sendable {
    /// `nil` while version `id` is being written, else the staging indexes of its chunks stored as bodies that a
    /// `chunks` row names (none when the version is gone).
    package let storedBodies: @Sendable (_ id: Int64) async throws -> Set<Int64>?

    /// The catalog of `dialect`'s database.
    package init<Dialect: ChunkedVersionDialect>(_ dialect: Dialect) {
        storedBodies = { id in
            ChunkSQL.storedBodies(
                try await dialect.read("list the chunk bodies of version \(id)", ChunkSQL.storedBodies(of: id)))
        }
    }
}

extension PieceKey {
    /// The staging version and index of the rows of a statement with ``SQLStatement/removesChunks`` that name a
    /// body (`in_file = 1`).
    package static func bodies(in rows: [SQLRow]) -> [PieceKey] {
        rows.compactMap { row in
            guard row.count == 3, row[2].integer == 1, let versionID = row[0].integer, let index = row[1].integer
            else { return nil }
            return PieceKey(versionID: versionID, chunkIndex: index)
        }
    }
}
