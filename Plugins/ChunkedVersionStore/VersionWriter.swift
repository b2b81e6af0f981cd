import Foundation
import Logging
import NIOCore
import WOPIStorage

/// Streams a body into a new `writing` version as content-defined chunks (``PieceCutter``), each chunk stored once
/// per database in pieces of ``ChunkedStorageConfiguration/chunkSize`` (``ChunkSQL``), a batch of pieces per
/// transaction (in multi-row `INSERT`s of about 1 MiB, ``ChunkedStorageConfiguration/bytesPerStatement``). With
/// ``ChunkedVersionDialect/chunkBodies``, a chunk of at least one piece is written to its body there instead (a file
/// or an object), and the batch's transaction only keys it (``ChunkBodyStore``).
///
/// One batch is stored while the next one fills, so memory holds at most two batches of
/// ``ChunkedStorageConfiguration/chunksPerTransaction`` pieces (the first batches are smaller), and the body's buffers
/// of the batch being stored until they are hashed. The SHA-256 of the body is computed on the global concurrent
/// executor while its batch is stored, so the task reading the body only reads and cuts. Each transaction
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
                    pieceSize: configuration.chunkSize, now: now, expiry: now + configuration.abandonedWriteTimeout)
            ])
        guard let versionID = rows.first?.first?.first?.integer else {
            throw StorageError(.io, "The database did not return the new version's ID; retry.")
        }
        let files = dialect.chunkBodies?.writer(for: versionID)
        do {
            return try await store(content, in: versionID, files: files)
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
                    VersionSQL.discardUnfinished(versionID, skipLocked: dialect.skipLocked))
                try await dialect.chunkBodies?.removeUnlisted(of: versionID)
            } catch {
                logger.notice("Could not delete unfinished version \(versionID) (garbage collection will): \(error)")
            }
        }.value
    }

    private func store(_ content: ByteStream, in versionID: Int64, files: (any ChunkBodyWriter)?) async throws
        -> StagedVersion
    {
        let digest = SharedContentDigest()
        // The body's buffers since the last batch was taken, hashed while that batch is stored.
        var unhashed: [ByteBuffer] = []
        var cutter = PieceCutter(pieceSize: configuration.chunkSize)
        // The batch being stored while the next one fills: the database works while the body streams in.
        var storing: (task: Task<Void, any Error>, hashing: Task<Void, Never>, batch: PieceCutter.Batch)?
        // The first piece is stored as soon as it is complete, then batches double up to chunksPerTransaction: a
        // save shows in the database at once, and small files cost few transactions.
        var batchLimit = 1
        var lastFlush = configuration.now()
        /// Waits for the batch being stored and hashed, then keeps its buffers for reuse.
        func finishStoring() async throws {
            guard let (task, hashing, batch) = storing else { return }
            storing = nil
            await hashing.value
            try await task.value
            cutter.recycle(batch)
        }
        do {
            for try await buffer in content {
                try Task.checkCancellation()
                unhashed.append(buffer)
                cutter.consume(buffer)
                // Flush when the batch is full, and now and then during a slow upload to keep the write alive.
                let idle = configuration.now().timeIntervalSince(lastFlush)
                if cutter.batchedBytes >= batchLimit * configuration.chunkSize
                    || idle > configuration.abandonedWriteTimeout / 3
                {
                    // The previous batch's hashing ends first: the digest takes the buffers in order.
                    try await finishStoring()
                    let batch = cutter.takeBatch()
                    storing = (
                        Task { try await flush(batch, into: versionID, files: files) },
                        Task(executorPreference: globalConcurrentExecutor) { [unhashed] in digest.update(unhashed) },
                        batch
                    )
                    unhashed.removeAll(keepingCapacity: true)
                    batchLimit = min(batchLimit * 2, configuration.chunksPerTransaction)
                    lastFlush = configuration.now()
                }
            }
            try await finishStoring()
            let hashing = Task(executorPreference: globalConcurrentExecutor) { [unhashed] in digest.update(unhashed) }
            let isZip = cutter.finish()
            try await flush(cutter.takeBatch(), into: versionID, files: files)
            await hashing.value
            let (size, sha256) = digest.result
            return StagedVersion(id: versionID, size: size, sha256: sha256, isZip: isZip, save: SaveContext.recorded)
        } catch {
            // Nothing may still be writing into the version when the caller discards it.
            _ = await storing?.task.result
            await files?.abandon()
            throw error
        }
    }

    /// Stores one batch of pieces and keys the chunks it completes, and renews the write's expiry, in one
    /// transaction with a deferred commit.
    ///
    /// No acknowledged save depends on this commit reaching the disk: the chunks belong to a `writing` version
    /// that no file points to. The transaction that switches the file to the finished version commits at the
    /// database's own durability, and its flush of the log makes every earlier commit durable too, these chunks
    /// included. A power loss before that commit leaves the old version current and, at worst, a prefix of these
    /// batches, which garbage collection removes (Docs/benchmarks.md, *Third round*).
    private func flush(_ batch: PieceCutter.Batch, into versionID: Int64, files: (any ChunkBodyWriter)?) async throws {
        var batch = batch
        let fileChunks = try await storeFiles(&batch, files: files)
        var statements = [
            VersionSQL.renewWrite(versionID, expiry: configuration.timestamp + configuration.abandonedWriteTimeout)
        ]
        // Statements of about 1 MiB: a 4 MiB one made PostgreSQL's backend spend half again as much CPU per byte
        // (allocating and faulting in its message and parameter buffers), for no fewer commits.
        var start = batch.pieces.startIndex
        while start < batch.pieces.endIndex {
            var end = start
            var bytes = 0
            while end < batch.pieces.endIndex, end - start < Self.rowsPerStatement,
                end == start
                    || Int64(bytes + batch.pieces[end].data.count) <= ChunkedStorageConfiguration.bytesPerStatement
            {
                bytes += batch.pieces[end].data.count
                end += 1
            }
            statements.append(ChunkSQL.insertPieces(batch.pieces[start..<end], of: versionID))
            start = end
        }
        for keyStart in stride(from: 0, to: batch.keys.count, by: Self.rowsPerStatement) {
            let keys = batch.keys[keyStart..<min(keyStart + Self.rowsPerStatement, batch.keys.count)]
            statements += ChunkSQL.key(keys, of: versionID, pieceSize: configuration.chunkSize)
        }
        guard let files, let first = fileChunks.first, let last = fileChunks.last else {
            _ = try await dialect.write("store part of an upload", durability: .deferred, statements)
            return
        }
        statements.append(ChunkSQL.keptFiles(of: versionID, first...last))
        let rows = try await dialect.write("store part of an upload", durability: .deferred, statements)
        let kept = Set((rows.last ?? []).compactMap { $0.first?.integer })
        let lost = fileChunks.filter { !kept.contains(Int64($0)) }
        guard !lost.isEmpty else { return }
        // Chunks stored before by another version (or twice in this one): their new bodies are not needed.
        try await files.remove(lost)
    }

    /// Appends the batch's pieces of chunks of at least one piece to their bodies (``ChunkBodyWriter``), completing
    /// the bodies of the chunks that end, and leaves the rest of the batch (short chunks, stored as pieces in the
    /// database) with the keys marked; returns the indexes of the chunk bodies that end in the batch, in order.
    private func storeFiles(_ batch: inout PieceCutter.Batch, files: (any ChunkBodyWriter)?) async throws -> [Int] {
        guard let files else { return [] }
        let pieceSize = configuration.chunkSize
        // A chunk's first piece is full exactly when the chunk is at least one piece long.
        let filePieces = batch.pieces.filter { $0.pieceIndex > 0 || $0.data.count == pieceSize }
        batch.pieces.removeAll { $0.pieceIndex > 0 || $0.data.count == pieceSize }
        for index in batch.keys.indices where batch.keys[index].length >= pieceSize { batch.keys[index].inFile = true }
        let ending = batch.keys.filter(\.inFile).map(\.chunkIndex)
        if !filePieces.isEmpty || !ending.isEmpty {
            try await files.store(filePieces, ending: ending)
        }
        return ending
    }

    /// The most rows one multi-row statement writes: well under both databases' limits on bound values.
    private static var rowsPerStatement: Int { 500 }
}
