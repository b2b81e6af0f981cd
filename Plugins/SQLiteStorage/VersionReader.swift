import Foundation
import GRDB
import Logging
import NIOCore
import Synchronization
import WOPIStorage

/// Reads one version's bytes in `range`, chunk by chunk, under a lease that keeps the version from deletion.
///
/// Up to ``bytesPerRead`` bytes (a few chunks) are fetched in one short read, so a slow reader holds no
/// connection and no snapshot, and a large body costs few thread hops; they are handed out in pieces of at most
/// one chunk, slices of the fetched buffer (no copy). The lease is renewed when less than half of it is left,
/// and released when the last byte of the range is handed out, or when the reader is dropped early (its lease
/// then also runs out by itself).
final class VersionReader: Sendable {
    private struct State {
        /// The next byte to fetch from the database.
        var offset: Int64
        /// Fetched bytes not handed out yet.
        var pending = ByteBuffer()
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

    /// The most bytes one read transaction fetches: several chunks, so that a large body costs few thread hops.
    static let bytesPerRead: Int64 = 1 << 20

    /// The next piece of content (at most one chunk), or `nil` at the end of the range.
    func next() async throws -> ByteBuffer? {
        if let piece = try await takePending() { return piece }
        let now = configuration.timestamp
        let (offset, renew) = state.withLock { state in
            (state.offset, state.leaseExpiresAt - now < configuration.readLeaseDuration / 2)
        }
        guard offset < end else {
            await releaseOnce()
            return nil
        }
        if renew { try await renewLease(now: now) }
        let length = min(max(Self.bytesPerRead / chunkSize, 1) * chunkSize, end - offset)
        let buffer = try await SQLiteErrorMapping.perform("read version \(versionID)") {
            try await pool.read { [versionID, chunkSize] db in
                try Self.read(db, version: versionID, chunkSize: chunkSize, from: offset, length: length)
            }
        }
        guard let buffer, buffer.readableBytes == length else {
            await releaseOnce()
            throw StorageError(
                .io,
                "Version \(versionID) was removed while it was being read (the reader stalled past its lease); "
                    + "read the file again.")
        }
        state.withLock { state in
            state.offset = offset + length
            state.pending = buffer
        }
        return try await takePending()
    }

    /// The next piece of the fetched bytes, or `nil` when none are left. Releases the version as soon as its
    /// last byte is out, not when the consumer asks for more.
    private func takePending() async throws -> ByteBuffer? {
        let (piece, finished) = state.withLock { state -> (ByteBuffer?, Bool) in
            guard state.pending.readableBytes > 0 else { return (nil, false) }
            let piece = state.pending.readSlice(length: min(Int(chunkSize), state.pending.readableBytes))
            return (piece, state.pending.readableBytes == 0 && state.offset >= end)
        }
        if finished { await releaseOnce() }
        return piece
    }

    /// `length` bytes of the version from `offset`, straight from SQLite's row buffers into one byte buffer;
    /// `nil` when a chunk is missing or short (the version was deleted).
    private static func read(_ db: Database, version: Int64, chunkSize: Int64, from offset: Int64, length: Int64)
        throws -> ByteBuffer?
    {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Int(length))
        var position = offset
        while position < offset + length {
            let index = position / chunkSize
            let start = position % chunkSize
            let wanted = Int(min(chunkSize - start, offset + length - position))
            // A whole chunk is read as is; only a part needs substr, which copies.
            let statement =
                start == 0
                ? try db.cachedStatement(
                    sql: "SELECT data FROM content_chunks WHERE version_id = ? AND chunk_index = ?")
                : try db.cachedStatement(
                    sql: "SELECT substr(data, ?, ?) FROM content_chunks WHERE version_id = ? AND chunk_index = ?")
            let arguments: StatementArguments =
                start == 0 ? [version, index] : [start + 1, wanted, version, index]
            // A cursor's row reads the column in place; Row.fetchOne would copy it first.
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            guard let row = try cursor.next() else { return nil }
            let copied = try row.withUnsafeData(atIndex: 0) { data -> Bool in
                guard let data, data.count >= wanted else { return false }
                _ = data.withUnsafeBytes { buffer.writeBytes(UnsafeRawBufferPointer(rebasing: $0.prefix(wanted))) }
                return true
            }
            guard copied else { return nil }
            position += Int64(wanted)
        }
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
