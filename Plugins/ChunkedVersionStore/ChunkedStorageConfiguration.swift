public import Foundation
public import WOPIStorage

/// The tuning of a storage on the chunked-version engine, `SQLiteStorage.Configuration` and
/// `PostgresStorage.Configuration` alike; the defaults suit a host serving Office documents.
public struct ChunkedStorageConfiguration: Sendable {
    /// The size of the pieces new content chunks are stored in, in bytes. Default 256 KiB.
    public var chunkSize: Int
    /// How many pieces one write transaction stores (in multi-row `INSERT`s of 1 MiB) while a body streams in.
    /// Default 16 (4 MiB at the default piece size): this bounds both the memory a write holds and the time it holds
    /// a write lock. The first batch of a save is one piece, and batches double up to this.
    public var chunksPerTransaction: Int
    /// How long a reader's lease on the version it reads lasts; it is renewed while the reader makes progress, so
    /// only an abandoned reader's lease runs out. Default 2 minutes.
    public var readLeaseDuration: TimeInterval
    /// How long an unfinished write may go without storing anything before it counts as abandoned (its process
    /// died) and its chunks are collected. Default 10 minutes.
    public var abandonedWriteTimeout: TimeInterval
    /// Which earlier versions of each file stay (``VersionRetention``). Default ``VersionRetention/standard``.
    public var versionRetention: VersionRetention
    /// The clock; tests inject their own. Every host sharing a database should keep its clock in sync (NTP).
    public var now: @Sendable () -> Date

    /// Creates a configuration; every parameter has a production default.
    public init(
        chunkSize: Int = ByteStream.preferredChunkSize, chunksPerTransaction: Int = 16,
        readLeaseDuration: TimeInterval = 120, abandonedWriteTimeout: TimeInterval = 600,
        versionRetention: VersionRetention = .standard, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(chunkSize > 0 && chunksPerTransaction > 0, "Chunk sizes and counts are positive.")
        self.chunkSize = chunkSize
        self.chunksPerTransaction = chunksPerTransaction
        self.readLeaseDuration = readLeaseDuration
        self.abandonedWriteTimeout = abandonedWriteTimeout
        self.versionRetention = versionRetention
        self.now = now
    }

    /// About how many bytes of content one statement moves, reading (one `SELECT` of several chunks) or writing
    /// (one multi-row `INSERT`): 1 MiB, so a large body costs few round trips and the database no huge messages.
    package static let bytesPerStatement: Int64 = 1 << 20

    /// The current time as stored in the database (seconds since 1970).
    package var timestamp: Double { now().timeIntervalSince1970 }

    /// How many chunks of `chunkSize` bytes one statement reads or writes: ``bytesPerStatement``'s worth, at least 1.
    package static func chunksPerStatement(chunkSize: Int64) -> Int64 { max(bytesPerStatement / chunkSize, 1) }
}
