import Foundation
import Logging
import NIOCore
import WOPIStorage

/// Streams a body into a new `writing` version, in fixed-size chunk rows, a batch of chunks per transaction (in
/// multi-row `INSERT`s of about 1 MiB, ``ChunkedStorageConfiguration/bytesPerStatement``).
///
/// One batch is stored while the next one fills, so memory holds at most two batches of
/// ``ChunkedStorageConfiguration/chunksPerTransaction`` chunks (the first batches are smaller). Each transaction
/// also renews the version's `write_expires_at`, so that garbage collection tells a live write from one whose host
/// died. The caller then commits the staged version (or discards it) in a transaction of its own.
struct VersionWriter<Dialect: ChunkedVersionDialect>: Sendable {
    let dialect: Dialect
    let configuration: ChunkedStorageConfiguration
    let logger: Logger

    /// Stores `content` as a new version and returns it; on failure, deletes what was stored and rethrows.
    func stage(_ content: ByteStream) async throws -> StagedVersion {
        let now = configuration.timestamp
        let rows = try await dialect.write(
            "start an upload", durability: .configured,
            [
                VersionSQL.begin(
                    chunkSize: configuration.chunkSize, now: now, expiry: now + configuration.abandonedWriteTimeout)
            ])
        guard let versionID = rows.first?.first?.first?.integer else {
            throw StorageError(.io, "The database did not return the new version's ID; retry.")
        }
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
        await Task { [dialect, logger] in
            do {
                _ = try await dialect.write(
                    "delete unfinished version \(versionID)", durability: .configured,
                    [VersionSQL.discardUnfinished(versionID)])
            } catch {
                logger.notice("Could not delete unfinished version \(versionID) (garbage collection will): \(error)")
            }
        }.value
    }

    private func store(_ content: ByteStream, in versionID: Int64) async throws -> StagedVersion {
        let chunkSize = configuration.chunkSize
        var digest = ContentDigest()
        var chunk = Data(capacity: chunkSize)
        var batch: [Data] = []
        // The batch being stored while the next one fills: the database works while the body streams in.
        var storing: (task: Task<Void, any Error>, chunks: [Data])?
        // Chunk buffers of stored batches, emptied for reuse: a write allocates two batches' worth, not one per chunk.
        var spare: [Data] = []
        var nextIndex = 0
        // The first chunk is stored as soon as it is complete, then batches double up to chunksPerTransaction: a
        // save shows in the database at once, and small files cost few transactions.
        var batchLimit = 1
        var lastFlush = configuration.now()
        /// Waits for the batch being stored, then keeps its buffers for reuse.
        func finishStoring() async throws {
            guard let (task, chunks) = storing else { return }
            storing = nil
            try await task.value
            for var stored in chunks {
                stored.removeAll(keepingCapacity: true)
                spare.append(stored)
            }
        }
        do {
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
                if batch.count >= batchLimit || idle > configuration.abandonedWriteTimeout / 3 {
                    try await finishStoring()
                    let (chunks, firstIndex) = (batch, nextIndex)
                    storing = (Task { try await flush(chunks, startingAt: firstIndex, into: versionID) }, chunks)
                    nextIndex += batch.count
                    batch.removeAll(keepingCapacity: true)
                    batchLimit = min(batchLimit * 2, configuration.chunksPerTransaction)
                    lastFlush = configuration.now()
                }
            }
            try await finishStoring()
        } catch {
            // Nothing may still be writing into the version when the caller discards it.
            _ = await storing?.task.result
            throw error
        }
        if !chunk.isEmpty { batch.append(chunk) }
        try await flush(batch, startingAt: nextIndex, into: versionID)
        return StagedVersion(id: versionID, size: digest.byteCount, sha256: digest.finalize())
    }

    /// Stores one batch of chunks and renews the write's expiry, in one transaction with a deferred commit.
    ///
    /// No acknowledged save depends on this commit reaching the disk: the chunks belong to a `writing` version
    /// that no file points to. The transaction that switches the file to the finished version commits at the
    /// database's own durability, and its flush of the log makes every earlier commit durable too, these chunks
    /// included. A power loss before that commit leaves the old version current and, at worst, a prefix of these
    /// batches, which garbage collection removes (Docs/benchmarks.md, *Third round*).
    private func flush(_ chunks: [Data], startingAt firstIndex: Int, into versionID: Int64) async throws {
        var statements = [
            VersionSQL.renewWrite(versionID, expiry: configuration.timestamp + configuration.abandonedWriteTimeout)
        ]
        // A statement of about 1 MiB: a 4 MiB one made PostgreSQL's backend spend half again as much CPU per byte
        // (allocating and faulting in its message and parameter buffers), for no fewer commits.
        let perStatement = Int(
            ChunkedStorageConfiguration.chunksPerStatement(chunkSize: Int64(configuration.chunkSize)))
        for start in stride(from: 0, to: chunks.count, by: perStatement) {
            let end = min(start + perStatement, chunks.count)
            statements.append(
                VersionSQL.insertChunks(Array(chunks[start..<end]), startingAt: firstIndex + start, into: versionID))
        }
        _ = try await dialect.write("store part of an upload", durability: .deferred, statements)
    }
}
