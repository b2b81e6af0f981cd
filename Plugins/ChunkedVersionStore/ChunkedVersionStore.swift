import Foundation
package import Logging
import NIOCore
import WOPIChunking
package import WOPIStorage

/// The one implementation of chunked file versions that `SQLiteStorage` and `PostgresStorage` share: versions,
/// content chunks, read leases, staging, the atomic switch to a new version and garbage collection, on the
/// tables `file_versions`, `chunks`, `chunk_pieces`, `version_chunks` and `version_leases` that each plugin's schema
/// creates (``ChunkSQL/migration(blob:)``).
///
/// A plugin provides a ``ChunkedVersionDialect`` (how to run statements on its database) and keeps its item tree;
/// the engine does the rest the same way on both:
///
/// - **A save** streams into a new `writing` version, up to ``ChunkedStorageConfiguration/chunksPerTransaction``
///   chunks per transaction in multi-row `INSERT`s of 1 MiB committed with ``CommitDurability/deferred``, one batch
///   stored while the next fills; then one transaction of the plugin (``commit(_:switchTo:)``) marks it complete
///   and points the file at it (``switchStatements(file:to:previous:now:)``). A failure at any point leaves the
///   previous version whole.
/// - **A read** takes a lease on the file's current version in the plugin's transaction that reads the file
///   (``opening(_:now:)``), then fetches ``ChunkedStorageConfiguration/bytesPerStatement`` per statement
///   (``content(of:range:lease:)``).
/// - **Content** is cut into content-defined chunks as it streams in (``PieceCutter``: CSPP Plus's `Zip` scheme
///   for a zip, `FullFile` otherwise), each keyed by its SpookyHash ``ChunkID`` and stored once per database in
///   fixed-size pieces (``ChunkSQL``), or, where the dialect has ``ChunkedVersionDialect/chunkBodies``, a chunk of
///   at least one piece as a body outside the database (``ChunkBodyStore``: a file, or an object); a version is the ordered list of
///   its chunks (``chunkListing(of:)``).
/// - **Garbage** (expired leases, abandoned writes, versions no file or reader needs, chunks no version lists)
///   goes with ``collectGarbage()``.
package struct ChunkedVersionStore<Dialect: ChunkedVersionDialect>: Sendable {
    /// How statements run.
    package let dialect: Dialect
    /// The tuning.
    package let configuration: ChunkedStorageConfiguration
    /// Where failures to clean up are logged.
    package let logger: Logger

    package init(dialect: Dialect, configuration: ChunkedStorageConfiguration, logger: Logger) {
        self.dialect = dialect
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Writing

    /// Stages `content` as a new version, then runs `switchTo` (the plugin's transaction that points a file at
    /// it, with the commit time); discards the staged version when that fails.
    package func commit<T: Sendable>(
        _ content: ByteStream, switchTo: @Sendable (StagedVersion, Double) async throws -> T
    ) async throws -> T {
        let writer = VersionWriter(dialect: dialect, configuration: configuration, logger: logger)
        let staged = try await writer.stage(content)
        do {
            return try await switchTo(staged, configuration.timestamp)
        } catch {
            await writer.discard(staged.id)
            throw error
        }
    }

    /// The statements that switch existing file `id` from its `previous` version to `staged`, for the plugin's
    /// commit transaction (the file's row locked where the database needs it): mark the version complete, point
    /// the file at it, retire the versions the ``ChunkedStorageConfiguration/versionRetention`` lets go (the
    /// previous one too, when `staged` coalesces with it), and delete the previous version at once when it is
    /// retired and no reader holds it.
    package func switchStatements(file id: ItemID, to staged: StagedVersion, previous: Int64?, now: Double)
        -> [SQLStatement]
    {
        [VersionSQL.markCommitted(staged, file: id, now: now), VersionSQL.pointFile(id, at: staged.id, now: now)]
            + VersionHistorySQL.retire(
                file: id, staged: staged, previous: previous, now: now, retention: configuration.versionRetention)
            + (previous.map { discardStatements(version: $0, now: now) } ?? [])
    }

    /// The statements that delete version `versionID` with the content only it holds, when it is no longer needed
    /// (retired, of a deleted file, or past the retention rules, and leased by no reader).
    package func discardStatements(version versionID: Int64, now: Double) -> [SQLStatement] {
        VersionSQL.discardRetired(
            versionID, now: now, retention: configuration.versionRetention, skipLocked: dialect.skipLocked)
    }

    /// The statements that delete the versions `versionIDs` of a file just deleted or replaced by a move (read
    /// with ``VersionHistorySQL/versionIDs(of:)`` before its row went), each unless a reader holds it; garbage
    /// collection deletes the others once their readers are done.
    package func discardStatements(versions versionIDs: [Int64], now: Double) -> [SQLStatement] {
        versionIDs.flatMap { discardStatements(version: $0, now: now) }
    }

    // MARK: Reading

    /// What opens `file`'s current version for reading; the plugin runs its statements in the transaction that
    /// read `file`.
    package func opening(_ file: FileMetadata, now: Double) throws -> VersionOpening {
        guard let versionID = VersionSQL.versionID(file.version) else {
            throw StorageError(.corrupt, "File \(file.id) points to a missing version; restore a backup.")
        }
        let expiry = now + configuration.readLeaseDuration
        return VersionOpening(
            versionID: versionID, expiresAt: expiry,
            statements: [
                VersionSQL.layout(of: versionID, file: file.id), VersionSQL.takeLease(on: versionID, expiry: expiry),
            ])
    }

    /// The content of `file` in `range` (clamped to the file), read under `lease`; its first bytes are fetched before
    /// it returns (``VersionReader/prime()``).
    package func content(
        of file: FileMetadata, range: Range<Int64>?, lease: VersionLease
    ) async throws -> FileContent {
        let lower = min(max(range?.lowerBound ?? 0, 0), file.size)
        let upper = min(max(range?.upperBound ?? file.size, lower), file.size)
        let reader = VersionReader(
            dialect: dialect, configuration: configuration, logger: logger, lease: lease, range: lower..<upper)
        try await reader.prime()
        let body = ByteStream(knownLength: upper - lower) {
            { try await reader.next() }
        }
        return FileContent(metadata: file, body: body)
    }

    // MARK: Garbage

    /// Deletes expired reader leases, abandoned unfinished writes and no longer needed old versions, in one
    /// transaction.
    package func collectGarbage() async throws -> GarbageReport {
        let rows = try await dialect.write(
            "collect garbage", durability: .configured,
            VersionSQL.collectGarbage(
                now: configuration.timestamp, retention: configuration.versionRetention, skipLocked: dialect.skipLocked)
        )
        let report = VersionSQL.garbageReport(rows)
        // The dialect removed the bodies of the chunks deleted here; these are the bodies no row names (of writes
        // that died before keying them, or whose removal a crash interrupted).
        let chunkBodies = try await dialect.chunkBodies?.removeAllUnlisted() ?? 0
        logger.debug(
            "Garbage collected",
            metadata: [
                "abandonedWrites": "\(report.abandonedWrites)", "retiredVersions": "\(report.retiredVersions)",
                "expiredLeases": "\(report.expiredLeases)", "chunks": "\(rows[3].count)", "pieces": "\(rows[4].count)",
                "chunkBodies": "\(chunkBodies)",
            ])
        return report
    }
}

extension ChunkedVersionStore {
    // MARK: Chunk lists

    /// The statements that list the chunks of `file`'s current version; the plugin runs them in the transaction
    /// that read `file`, and hands their rows to ``contentChunks(of:listed:reading:)``.
    package func chunkListing(of file: FileMetadata) throws -> [SQLStatement] {
        guard let versionID = VersionSQL.versionID(file.version) else {
            throw StorageError(.corrupt, "File \(file.id) points to a missing version; restore a backup.")
        }
        return [VersionSQL.layout(of: versionID, file: file.id), ChunkSQL.contentChunks(of: versionID)]
    }

    /// The chunk list of `file` from the rows of ``chunkListing(of:)``; a version written before the chunk layout
    /// is cut by reading the file's content once (`reading`).
    package func contentChunks(
        of file: FileMetadata, listed rows: [[SQLRow]], reading: () async throws -> FileContent
    ) async throws -> ContentChunkList {
        guard rows.count == 2, let layout = rows[0].first, layout.count == 3 else { throw StorageErrors.missingRows }
        guard layout[1].integer == 1 else {
            let content = try await reading()
            return try await ContentChunkList(cutting: content.body, version: content.metadata.version)
        }
        let chunks = try rows[1].map { row -> ContentChunk in
            guard row.count == 3, case .blob(let bytes) = row[0], let id = ChunkID(bytes: bytes.readableBytesView),
                let offset = row[1].integer, let length = row[2].integer
            else { throw StorageError(.corrupt, "The chunk list of file \(file.id) is damaged; restore a backup.") }
            return ContentChunk(id: id, offset: offset, length: length)
        }
        return ContentChunkList(version: file.version, isZip: layout[2].integer == 1, chunks: chunks)
    }
}
