import Foundation
import WOPIStorage

extension PostgresStorage {
    /// Tuning of a ``PostgresStorage``; the defaults suit a host serving Office documents.
    public struct Configuration: Sendable {
        /// The size of the content chunk rows of new versions, in bytes. Default 256 KiB.
        public var chunkSize: Int
        /// How long a reader's lease on the version it reads lasts; renewed while the reader makes progress, so
        /// only an abandoned reader's lease runs out. Default 2 minutes.
        public var readLeaseDuration: TimeInterval
        /// How long an unfinished write may go without storing anything before it counts as abandoned (its host
        /// died) and its chunks are collected. Default 10 minutes.
        public var abandonedWriteTimeout: TimeInterval
        /// The clock; tests inject their own. Every host of a deployment should keep its clock in sync (NTP).
        public var now: @Sendable () -> Date

        /// Creates a configuration; every parameter has a production default.
        public init(
            chunkSize: Int = ByteStream.preferredChunkSize, readLeaseDuration: TimeInterval = 120,
            abandonedWriteTimeout: TimeInterval = 600, now: @escaping @Sendable () -> Date = { Date() }
        ) {
            precondition(chunkSize > 0, "Chunks have a positive size.")
            self.chunkSize = chunkSize
            self.readLeaseDuration = readLeaseDuration
            self.abandonedWriteTimeout = abandonedWriteTimeout
            self.now = now
        }

        /// The current time as stored in the database (seconds since 1970).
        var timestamp: Double { now().timeIntervalSince1970 }
    }
}
