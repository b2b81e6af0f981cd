import Foundation
import Logging
import NIOCore
import PostgresNIO
import WOPIStorage

/// Streams a body into a new `writing` version, one chunk row per statement.
///
/// Memory holds one chunk. Every few chunks it renews the version's `write_expires_at`, so that garbage
/// collection tells a live write from one whose host died. The caller then commits the staged version (or
/// discards it) in a transaction of its own.
struct PostgresVersionWriter {
    /// A version whose content is stored but which no file points to yet.
    struct Staged: Sendable {
        var id: Int64
        var size: Int64
        var sha256: Data
    }

    let database: PostgresPool
    let configuration: PostgresStorage.Configuration

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
    /// It runs in a task of its own, so that it still runs when the write failed because its task was cancelled.
    func discard(_ versionID: Int64) async {
        await Task { [database] in
            do {
                _ = try await database.withConnection("delete unfinished version \(versionID)") { connection in
                    try await connection.query(
                        "DELETE FROM file_versions WHERE id = \(versionID) AND state = 'writing'",
                        logger: database.logger)
                }
            } catch {
                database.logger.notice(
                    "Could not delete unfinished version \(versionID) (garbage collection will): \(error)")
            }
        }.value
    }

    private func begin() async throws -> Int64 {
        let now = configuration.timestamp
        let expiry = now + configuration.abandonedWriteTimeout
        let chunkSize = configuration.chunkSize
        let logger = database.logger
        return try await database.withConnection("start an upload") { connection in
            let rows = try await connection.query(
                """
                INSERT INTO file_versions (file_id, state, chunk_size, created_at, write_expires_at)
                VALUES (NULL, 'writing', \(chunkSize), \(now), \(expiry)) RETURNING id
                """, logger: logger
            ).decode(Int64.self)
            for try await id in rows { return id }
            throw StorageError(.io, "The database did not return the new version's ID; retry.")
        }
    }

    private func store(_ content: ByteStream, in versionID: Int64) async throws -> Staged {
        let chunkSize = configuration.chunkSize
        var digest = ContentDigest()
        var chunk = ByteBuffer()
        chunk.reserveCapacity(chunkSize)
        var nextIndex: Int32 = 0
        var lastRenewal = configuration.now()
        for try await var buffer in content {
            try Task.checkCancellation()
            digest.update(buffer)
            while buffer.readableBytes > 0 {
                var slice = buffer.readSlice(length: min(chunkSize - chunk.readableBytes, buffer.readableBytes))!
                chunk.writeBuffer(&slice)
                if chunk.readableBytes == chunkSize {
                    try await insert(chunk, index: nextIndex, into: versionID)
                    nextIndex += 1
                    chunk.clear()
                }
            }
            // Keep the write alive during a slow upload.
            if configuration.now().timeIntervalSince(lastRenewal) > configuration.abandonedWriteTimeout / 3 {
                try await renew(versionID)
                lastRenewal = configuration.now()
            }
        }
        if chunk.readableBytes > 0 { try await insert(chunk, index: nextIndex, into: versionID) }
        try await renew(versionID)
        return Staged(id: versionID, size: digest.byteCount, sha256: digest.finalize())
    }

    private func insert(_ chunk: ByteBuffer, index: Int32, into versionID: Int64) async throws {
        let logger = database.logger
        _ = try await database.withConnection("store part of an upload") { connection in
            try await connection.query(
                "INSERT INTO content_chunks (version_id, chunk_index, data) VALUES (\(versionID), \(index), \(chunk))",
                logger: logger)
        }
    }

    private func renew(_ versionID: Int64) async throws {
        let expiry = configuration.timestamp + configuration.abandonedWriteTimeout
        let logger = database.logger
        let renewed = try await database.withConnection("keep an upload alive") { connection in
            var count = 0
            for try await _ in try await connection.query(
                """
                UPDATE file_versions SET write_expires_at = \(expiry)
                WHERE id = \(versionID) AND state = 'writing' RETURNING 1
                """, logger: logger)
            {
                count += 1
            }
            return count
        }
        guard renewed == 1 else {
            throw StorageError(.io, "The upload stalled so long that its partial content was collected; send it again.")
        }
    }
}
