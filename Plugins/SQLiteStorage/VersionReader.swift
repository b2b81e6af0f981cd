import Foundation
import GRDB
import Logging
import NIOCore
import Synchronization
import WOPIStorage

/// Reads one version's bytes in `range`, chunk by chunk, under a lease that keeps the version from deletion.
///
/// Each chunk is fetched in its own short read, so a slow reader holds no connection and no snapshot. The
/// lease is renewed when less than half of it is left, and released when the range is read to its end, or
/// when the reader is dropped early (its lease then also runs out by itself).
final class VersionReader: Sendable {
    private struct State {
        var offset: Int64
        var leaseExpiresAt: Double
        var released = false
    }

    private let pool: DatabasePool
    private let configuration: SQLiteStorage.Configuration
    private let logger: Logger
    private let versionID: Int64
    private let chunkSize: Int64
    private let end: Int64
    private let leaseID: Int64
    private let state: Mutex<State>

    init(
        pool: DatabasePool, configuration: SQLiteStorage.Configuration, logger: Logger, versionID: Int64,
        chunkSize: Int64, range: Range<Int64>, leaseID: Int64, leaseExpiresAt: Double
    ) {
        self.pool = pool
        self.configuration = configuration
        self.logger = logger
        self.versionID = versionID
        self.chunkSize = chunkSize
        self.end = range.upperBound
        self.leaseID = leaseID
        self.state = Mutex(State(offset: range.lowerBound, leaseExpiresAt: leaseExpiresAt))
    }

    deinit {
        let released = state.withLock { $0.released }
        if !released {
            Task { [pool, leaseID, versionID, configuration, logger] in
                await Self.release(
                    pool: pool, leaseID: leaseID, versionID: versionID, now: configuration.timestamp, logger: logger)
            }
        }
    }

    /// The next piece of content (at most one chunk), or `nil` at the end of the range.
    func next() async throws -> ByteBuffer? {
        let now = configuration.timestamp
        let (offset, renew) = state.withLock { state in
            (state.offset, state.leaseExpiresAt - now < configuration.readLeaseDuration / 2)
        }
        guard offset < end else {
            await releaseOnce()
            return nil
        }
        if renew { try await renewLease(now: now) }
        let index = offset / chunkSize
        let start = offset % chunkSize
        let length = min(chunkSize - start, end - offset)
        let buffer = try await SQLiteErrorMapping.perform("read version \(versionID)") {
            try await pool.read { [versionID] db -> ByteBuffer? in
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT substr(data, ?, ?) FROM content_chunks WHERE version_id = ? AND chunk_index = ?",
                    arguments: [start + 1, length, versionID, index])
                return try row?.withUnsafeData(atIndex: 0) { data in data.map { ByteBuffer(bytes: $0) } }
            }
        }
        guard let buffer, buffer.readableBytes == length else {
            await releaseOnce()
            throw StorageError(
                .io,
                "Version \(versionID) was removed while it was being read (the reader stalled past its lease); "
                    + "read the file again.")
        }
        state.withLock { $0.offset = offset + length }
        // Release the version as soon as its last byte is out, not when the consumer asks for more.
        if offset + length >= end { await releaseOnce() }
        return buffer
    }

    private func renewLease(now: Double) async throws {
        let expiry = now + configuration.readLeaseDuration
        let renewed = try await SQLiteErrorMapping.perform("renew the read lease on version \(versionID)") {
            try await pool.write { [leaseID, versionID] db in
                try db.execute(
                    sql: "UPDATE version_leases SET expires_at = ? WHERE id = ?", arguments: [expiry, leaseID])
                if db.changesCount == 1 { return true }
                // The lease ran out and was collected: take it again if the version is still there.
                try db.execute(
                    sql: """
                        INSERT INTO version_leases (id, version_id, expires_at)
                        SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM file_versions WHERE id = ?)
                        """, arguments: [leaseID, versionID, expiry, versionID])
                return db.changesCount == 1
            }
        }
        // A lost lease is not fatal by itself: the chunk fetch tells whether the version is still there.
        if renewed { state.withLock { $0.leaseExpiresAt = expiry } }
    }

    private func releaseOnce() async {
        let first = state.withLock { state in
            defer { state.released = true }
            return !state.released
        }
        if first {
            await Self.release(
                pool: pool, leaseID: leaseID, versionID: versionID, now: configuration.timestamp, logger: logger)
        }
    }

    private static func release(pool: DatabasePool, leaseID: Int64, versionID: Int64, now: Double, logger: Logger)
        async
    {
        // A task of its own, so that a reader whose task was cancelled still releases its lease.
        await Task {
            do {
                try await pool.write { db in
                    try db.execute(sql: "DELETE FROM version_leases WHERE id = ?", arguments: [leaseID])
                    try StorageSQL.discardRetired(db, [versionID], now: now)
                }
            } catch {
                logger.notice("Could not release read lease \(leaseID) (it will expire by itself): \(error)")
            }
        }.value
    }
}
