import Foundation
import Logging
import NIOCore
import Synchronization
import WOPIStorage

/// Reads one version's bytes in a range under a lease that keeps the version from deletion, on every host that
/// shares the database.
///
/// Several pieces (up to ``ChunkedStorageConfiguration/bytesPerStatement``) are fetched in one statement, so a slow
/// reader holds no connection and no snapshot, and a large body costs few round trips; they are handed out a piece
/// at a time, while the next statement's worth is fetched ahead. The lease is renewed when less than half of it is
/// left, and released when the last byte of the range is handed out, or when the reader is dropped early (its lease
/// then also runs out by itself).
final class VersionReader<Dialect: ChunkedVersionDialect>: Sendable {
    private struct State {
        /// The next byte to fetch from the database.
        var offset: Int64
        /// Fetched pieces not handed out yet, first one last.
        var pending: [ByteBuffer] = []
        /// The next chunks of the version (chunk layout), fetched ahead.
        var window: [ChunkReference] = []
        var leaseExpiresAt: Double
        var released = false
        /// The fetch of the next statement's worth, started as soon as the previous one came back.
        var ahead: Task<([ByteBuffer], Int64)?, any Error>?
    }

    private let dialect: Dialect
    private let configuration: ChunkedStorageConfiguration
    private let logger: Logger
    private let versionID: Int64
    private let chunkSize: Int64
    private let isChunked: Bool
    private let end: Int64
    private let leaseID: Int64
    private let state: Mutex<State>

    init(
        dialect: Dialect, configuration: ChunkedStorageConfiguration, logger: Logger, lease: VersionLease,
        range: Range<Int64>
    ) {
        self.dialect = dialect
        self.configuration = configuration
        self.logger = logger
        self.versionID = lease.versionID
        self.chunkSize = lease.chunkSize
        self.isChunked = lease.isChunked
        self.end = range.upperBound
        self.leaseID = lease.id
        self.state = Mutex(State(offset: range.lowerBound, leaseExpiresAt: lease.expiresAt))
    }

    deinit {
        if !state.withLock({ $0.released }) {
            Task { [dialect, leaseID, versionID, configuration, logger] in
                await Self.release(
                    dialect: dialect, leaseID: leaseID, versionID: versionID, configuration: configuration,
                    logger: logger)
            }
        }
    }

    /// The next piece of content (at most one chunk), or `nil` at the end of the range.
    func next() async throws -> ByteBuffer? {
        if let piece = await takePending() { return piece }
        let now = configuration.timestamp
        let (offset, renew) = state.withLock { state in
            (state.offset, state.leaseExpiresAt - now < configuration.readLeaseDuration / 2)
        }
        guard offset < end else {
            await releaseOnce()
            return nil
        }
        if renew { try await renewLease(now: now) }
        let ahead = state.withLock { state in
            defer { state.ahead = nil }
            return state.ahead
        }
        let fetched: ([ByteBuffer], Int64)?
        if let ahead { fetched = try await ahead.value } else { fetched = try await fetch(from: offset) }
        guard let (pieces, fetchedEnd) = fetched else {
            await releaseOnce()
            throw StorageError(
                .io,
                "Version \(versionID) was removed while it was being read (the reader stalled past its lease); "
                    + "read the file again.")
        }
        state.withLock { state in
            state.offset = fetchedEnd
            state.pending = pieces.reversed()
            // Read ahead: the database works on the next statement while these pieces go out.
            if fetchedEnd < end { state.ahead = Task { try await self.fetch(from: fetchedEnd) } }
        }
        return await takePending()
    }

    /// Fetches the first bytes now, so that content that cannot be read (a bucket that does not answer) fails the
    /// opening of the file, which becomes an error answer, rather than its body, which could only break the transfer
    /// after a `200`.
    func prime() async throws {
        guard let first = try await next() else { return }
        state.withLock { $0.pending.append(first) }
    }

    /// Fetches about a statement's worth from `offset` on, in the version's layout; `nil` when its content is gone.
    private func fetch(from offset: Int64) async throws -> ([ByteBuffer], Int64)? {
        try await isChunked ? fetchChunks(from: offset) : fetchFixed(from: offset)
    }

    // MARK: The chunk layout

    /// Fetches about ``ChunkedStorageConfiguration/bytesPerStatement`` from `offset` on: part of a chunk file, or in
    /// one statement part of one large chunk of pieces, or several small ones whole. Returns the bytes and where they
    /// end, or `nil` when the version's chunks are gone.
    private func fetchChunks(from offset: Int64) async throws -> ([ByteBuffer], Int64)? {
        var window = state.withLock { state in
            state.window.removeAll { $0.start + $0.length <= offset }
            return state.window
        }
        if window.isEmpty {
            let rows = try await dialect.read(
                "read version \(versionID)",
                ChunkSQL.chunkList(of: versionID, endingAfter: offset, limit: Self.chunksPerWindow))
            window = rows.compactMap(ChunkReference.init)
            guard window.count == rows.count, !window.isEmpty else { return nil }
        }
        let plan = ChunkReadPlan(
            window: window, from: offset, to: end,
            bodyReadSize: dialect.chunkBodies?.readSize ?? ChunkedStorageConfiguration.bytesPerStatement)
        let pieces: [ByteBuffer]
        if let (key, range) = plan.file {
            guard let files = dialect.chunkBodies, let bytes = try await files.read(key, range) else { return nil }
            // Handed out a piece at a time, as pieces from the database are.
            pieces = stride(from: 0, to: bytes.readableBytes, by: Int(chunkSize)).compactMap { start in
                bytes.getSlice(at: bytes.readerIndex + start, length: min(Int(chunkSize), bytes.readableBytes - start))
            }
        } else {
            guard !plan.parts.isEmpty else { return nil }
            let rows = try await dialect.read(
                "read version \(versionID)", ChunkSQL.pieces(plan.parts.map { ($0.chunk.stored, $0.pieces) }))
            guard let read = plan.pieces(from: rows) else { return nil }
            pieces = read
        }
        state.withLock { state in state.window = window.filter { $0.start + $0.length > plan.end } }
        return (pieces, plan.end)
    }

    /// How many chunk references a reader fetches at once.
    private static var chunksPerWindow: Int { 256 }

    // MARK: The old fixed-size layout

    /// Fetches ``ChunkedStorageConfiguration/bytesPerStatement`` from `offset` on, or `nil` when the version's
    /// chunks are gone.
    private func fetchFixed(from offset: Int64) async throws -> ([ByteBuffer], Int64)? {
        let firstChunk = offset / chunkSize
        let lastChunk = min(
            firstChunk + ChunkedStorageConfiguration.chunksPerStatement(chunkSize: chunkSize),
            (end + chunkSize - 1) / chunkSize)
        let rows = try await dialect.read(
            "read version \(versionID)", VersionSQL.chunks(of: versionID, firstChunk..<lastChunk))
        guard let pieces = pieces(of: rows, chunks: firstChunk..<lastChunk, from: offset) else { return nil }
        return (pieces, min(lastChunk * chunkSize, end))
    }

    /// The bytes of `rows` (chunks `chunks`, in order) from `offset` up to the end of the range, a piece per chunk;
    /// `nil` when a chunk is missing or short (the version was deleted).
    private func pieces(of rows: [SQLRow], chunks: Range<Int64>, from offset: Int64) -> [ByteBuffer]? {
        guard rows.count == chunks.count else { return nil }
        var pieces: [ByteBuffer] = []
        pieces.reserveCapacity(rows.count)
        for (index, row) in zip(chunks, rows) {
            guard row.count == 2, row[0].integer == index, case .blob(let data) = row[1] else { return nil }
            let chunkStart = index * chunkSize
            let start = max(offset, chunkStart) - chunkStart
            let length = min(chunkStart + chunkSize, end) - chunkStart - start
            guard data.readableBytes >= start + length,
                let piece = data.getSlice(at: data.readerIndex + Int(start), length: Int(length))
            else { return nil }
            pieces.append(piece)
        }
        return pieces
    }

    /// The next fetched piece, or `nil` when none is left. Releases the version as soon as its last byte is out,
    /// not when the consumer asks for more.
    private func takePending() async -> ByteBuffer? {
        let (piece, finished) = state.withLock { state -> (ByteBuffer?, Bool) in
            guard let piece = state.pending.popLast() else { return (nil, false) }
            return (piece, state.pending.isEmpty && state.offset >= end)
        }
        if finished { await releaseOnce() }
        return piece
    }

    private func renewLease(now: Double) async throws {
        let expiry = now + configuration.readLeaseDuration
        let rows = try await dialect.write(
            "renew the read lease on version \(versionID)", durability: .configured,
            [
                VersionSQL.renewLease(leaseID, expiry: expiry),
                // The lease ran out and was collected: take it again if the version is still there.
                VersionSQL.retakeLease(
                    leaseID, on: versionID, expiry: expiry, explicitIdentity: dialect.explicitIdentity),
            ])
        // A lost lease is not fatal by itself: the chunk fetch tells whether the version is still there.
        if rows.reduce(0, { $0 + $1.count }) == 1 { state.withLock { $0.leaseExpiresAt = expiry } }
    }

    private func releaseOnce() async {
        let first = state.withLock { state in
            defer { state.released = true }
            return !state.released
        }
        if first {
            await Self.release(
                dialect: dialect, leaseID: leaseID, versionID: versionID, configuration: configuration, logger: logger)
        }
    }

    private static func release(
        dialect: Dialect, leaseID: Int64, versionID: Int64, configuration: ChunkedStorageConfiguration, logger: Logger
    ) async {
        // A task of its own, so that a reader whose task was cancelled still releases its lease.
        await Task {
            do {
                _ = try await dialect.write(
                    "release read lease \(leaseID)", durability: .configured,
                    [VersionSQL.releaseLease(leaseID)]
                        + VersionSQL.discardRetired(
                            versionID, now: configuration.timestamp, retention: configuration.versionRetention,
                            skipLocked: dialect.skipLocked))
            } catch {
                logger.notice("Could not release read lease \(leaseID) (it will expire by itself): \(error)")
            }
        }.value
    }
}
