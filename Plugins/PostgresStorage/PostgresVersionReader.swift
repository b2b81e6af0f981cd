import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization
import WOPIStorage

/// Reads one version's bytes in a range, one chunk per statement, under a lease that keeps the version from
/// deletion on every host.
///
/// A slow reader holds no connection between chunks. The lease is renewed when less than half of it is left, and
/// released after the last byte of the range, or when the reader is dropped early (its lease then also runs out
/// by itself).
final class PostgresVersionReader: Sendable {
    private struct State {
        /// The next byte to fetch.
        var offset: Int64
        var leaseExpiresAt: Double
        var released = false
    }

    private let database: PostgresPool
    private let configuration: PostgresStorage.Configuration
    private let versionID: Int64
    private let chunkSize: Int64
    private let end: Int64
    private let leaseID: Int64
    private let state: Mutex<State>

    init(
        database: PostgresPool, configuration: PostgresStorage.Configuration, versionID: Int64,
        chunkSize: Int64, range: Range<Int64>, leaseID: Int64, leaseExpiresAt: Double
    ) {
        self.database = database
        self.configuration = configuration
        self.versionID = versionID
        self.chunkSize = chunkSize
        self.end = range.upperBound
        self.leaseID = leaseID
        self.state = Mutex(State(offset: range.lowerBound, leaseExpiresAt: leaseExpiresAt))
    }

    deinit {
        if !state.withLock({ $0.released }) {
            Task { [database, leaseID, versionID, configuration] in
                await Self.release(
                    database: database, leaseID: leaseID, versionID: versionID, now: configuration.timestamp)
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
        let index = Int32(offset / chunkSize)
        let start = offset % chunkSize
        let length = min(chunkSize - start, end - offset)
        let logger = database.logger
        let versionID = versionID
        // A whole chunk is sent as is; only a part needs substring, which copies on the server.
        let query: PostgresQuery =
            start == 0 && length == chunkSize
            ? "SELECT data FROM content_chunks WHERE version_id = \(versionID) AND chunk_index = \(index)"
            : """
            SELECT substring(data FROM \(Int32(start + 1)) FOR \(Int32(length))) FROM content_chunks
            WHERE version_id = \(versionID) AND chunk_index = \(index)
            """
        let piece = try await database.withConnection("read version \(versionID)") { connection -> ByteBuffer? in
            for try await data in try await connection.query(query, logger: logger).decode(ByteBuffer.self) {
                return data
            }
            return nil
        }
        guard let piece, piece.readableBytes >= length else {
            await releaseOnce()
            throw StorageError(
                .io,
                "Version \(versionID) was removed while it was being read (the reader stalled past its lease); "
                    + "read the file again.")
        }
        let finished = state.withLock { state in
            state.offset = offset + length
            return state.offset >= end
        }
        if finished { await releaseOnce() }
        return piece.getSlice(at: piece.readerIndex, length: Int(length))
    }

    private func renewLease(now: Double) async throws {
        let expiry = now + configuration.readLeaseDuration
        let logger = database.logger
        let (leaseID, versionID) = (leaseID, versionID)
        let renewed = try await database.transaction("renew the read lease on version \(versionID)") { connection in
            var count = 0
            for try await _ in try await connection.query(
                "UPDATE version_leases SET expires_at = \(expiry) WHERE id = \(leaseID) RETURNING 1", logger: logger)
            {
                count += 1
            }
            return count == 1
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
            await Self.release(database: database, leaseID: leaseID, versionID: versionID, now: configuration.timestamp)
        }
    }

    private static func release(database: PostgresPool, leaseID: Int64, versionID: Int64, now: Double) async {
        // A task of its own, so that a reader whose task was cancelled still releases its lease.
        await Task {
            do {
                try await database.transaction("release a read lease") { connection in
                    let sql = PostgresStorageSQL(connection: connection, logger: database.logger)
                    try await sql.execute("DELETE FROM version_leases WHERE id = \(leaseID)")
                    try await sql.discardRetired(versionID, now: now)
                }
            } catch {
                database.logger.notice("Could not release read lease \(leaseID) (it will expire by itself): \(error)")
            }
        }.value
    }
}
