import Foundation
import GRDB
import Logging
import NIOCore
import WOPIStorage

/// Streams a body into a new `writing` version, in fixed-size chunk rows, a few chunks per transaction.
///
/// Memory holds at most ``SQLiteStorage/Configuration/chunksPerTransaction`` chunks. Each transaction also
/// renews the version's `write_expires_at`, so that garbage collection tells a live write from one whose
/// process died. The caller then commits the staged version (or discards it) in a transaction of its own.
struct VersionWriter {
    /// A version whose content is stored but which no file points to yet.
    struct Staged {
        var id: Int64
        var size: Int64
        var sha256: Data
    }

    let pool: DatabasePool
    let configuration: SQLiteStorage.Configuration
    let logger: Logger

    /// Stores `content` as a new version and returns it; on failure, deletes what was stored and rethrows.
    func stage(_ content: ByteStream) async throws -> Staged {
        let versionID = try await begin()
        do {
            return try await store(content, in: versionID)
        } catch {
            await discard(versionID)
            throw error
        }
    }

    /// Deletes a version that was staged but not committed (best effort: garbage collection catches misses).
    ///
    /// It runs in a task of its own, so that it still runs when the write failed because its task was cancelled
    /// (GRDB refuses database access from a cancelled task).
    func discard(_ versionID: Int64) async {
        await Task { [pool, logger] in
            do {
                try await pool.write { db in
                    try db.execute(
                        sql: "DELETE FROM file_versions WHERE id = ? AND state = 'writing'", arguments: [versionID])
                }
            } catch {
                logger.notice("Could not delete unfinished version \(versionID) (garbage collection will): \(error)")
            }
        }.value
    }

    private func begin() async throws -> Int64 {
        let now = configuration.timestamp
        let expiry = now + configuration.abandonedWriteTimeout
        let chunkSize = configuration.chunkSize
        return try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO file_versions (file_id, state, chunk_size, created_at, write_expires_at)
                    VALUES (NULL, 'writing', ?, ?, ?)
                    """, arguments: [chunkSize, now, expiry])
            return db.lastInsertedRowID
        }
    }

    private func store(_ content: ByteStream, in versionID: Int64) async throws -> Staged {
        let chunkSize = configuration.chunkSize
        var digest = ContentDigest()
        var chunk = Data(capacity: chunkSize)
        var batch: [Data] = []
        // Chunk buffers of stored batches, emptied for reuse: a write allocates one batch's worth, not one per chunk.
        var spare: [Data] = []
        var nextIndex = 0
        var lastFlush = configuration.now()
        for try await var buffer in content {
            try Task.checkCancellation()
            digest.update(buffer)
            while buffer.readableBytes > 0 {
                let take = min(chunkSize - chunk.count, buffer.readableBytes)
                buffer.readWithUnsafeReadableBytes { bytes in
                    chunk.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<take]))
                    return take
                }
                if chunk.count == chunkSize {
                    batch.append(chunk)
                    chunk = spare.popLast() ?? Data(capacity: chunkSize)
                }
            }
            // Flush when the batch is full, and now and then during a slow upload to keep the write alive.
            let idle = configuration.now().timeIntervalSince(lastFlush)
            if batch.count >= configuration.chunksPerTransaction || idle > configuration.abandonedWriteTimeout / 3 {
                try await flush(batch, startingAt: nextIndex, into: versionID)
                nextIndex += batch.count
                while var stored = batch.popLast() {
                    stored.removeAll(keepingCapacity: true)
                    spare.append(stored)
                }
                lastFlush = configuration.now()
            }
        }
        if !chunk.isEmpty { batch.append(chunk) }
        try await flush(batch, startingAt: nextIndex, into: versionID)
        return Staged(id: versionID, size: digest.byteCount, sha256: digest.finalize())
    }

    /// Stores one batch of chunks and renews the write's expiry, in one transaction committed with
    /// `synchronous = NORMAL`.
    ///
    /// No acknowledged save depends on this commit reaching the disk: the chunks belong to a `writing` version
    /// that no file points to. The transaction that switches the file to the finished version runs at the
    /// database's own level (`FULL` by default), and in WAL mode its fsync of the log makes every frame before
    /// it durable too, these chunks included. A power loss before that commit leaves the old version current
    /// and, at worst, a prefix of these batches, which garbage collection removes (Docs/benchmarks.md, *Third
    /// round*).
    private func flush(_ chunks: [Data], startingAt firstIndex: Int, into versionID: Int64) async throws {
        let expiry = configuration.timestamp + configuration.abandonedWriteTimeout
        try await pool.writeWithoutTransaction { db in
            // The writer connection's level (2 = FULL, 3 = EXTRA), restored before the next writer runs.
            let level = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
            let relaxed = level > 1
            if relaxed { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let stored = Result {
                try db.inTransaction(.immediate) {
                    try Self.store(chunks, startingAt: firstIndex, into: versionID, expiry: expiry, db)
                    return .commit
                }
            }
            if relaxed { try db.execute(sql: "PRAGMA synchronous = \(level)") }
            try stored.get()
        }
    }

    private static func store(
        _ chunks: [Data], startingAt firstIndex: Int, into versionID: Int64, expiry: Double, _ db: Database
    ) throws {
        try db.execute(
            sql: "UPDATE file_versions SET write_expires_at = ? WHERE id = ? AND state = 'writing'",
            arguments: [expiry, versionID])
        guard db.changesCount == 1 else {
            throw StorageError(
                .io, "The upload stalled so long that its partial content was collected; send it again.")
        }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO content_chunks (version_id, chunk_index, data) VALUES (?, ?, ?)")
        for (offset, chunk) in chunks.enumerated() {
            try insert.execute(arguments: [versionID, firstIndex + offset, chunk])
        }
    }
}
