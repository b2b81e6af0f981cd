public import Foundation
public import Logging

extension SQLiteDatabase {
    /// How a ``SQLiteDatabase`` opens its file.
    public struct Configuration: Sendable {
        /// How hard SQLite works to make each commit durable.
        public enum Synchronous: String, Sendable {
            /// `PRAGMA synchronous = FULL`: each commit is synced to disk (the WAL is fsynced) before it returns,
            /// so an acknowledged save survives a power loss. The default.
            case full = "FULL"
            /// `PRAGMA synchronous = NORMAL`: in WAL mode the database stays consistent after a crash or power
            /// loss, but the last commits before a power loss may be rolled back. Faster; fine for caches.
            case normal = "NORMAL"
        }

        /// How long a connection waits for another connection or process holding the write lock before it
        /// fails with ``WOPIStorage/StorageError/Code/busy`` (hosts answer 503). Default 10 seconds.
        public var busyTimeout: TimeInterval
        /// The durability of commits. Default ``Synchronous/full``.
        public var synchronous: Synchronous
        /// The most concurrent read connections in this process. Default 8.
        public var maximumReaderCount: Int
        /// Where the database logs; it logs at `debug` and `notice` levels only.
        public var logger: Logger

        /// Creates a configuration; every parameter has a production default.
        public init(
            busyTimeout: TimeInterval = 10, synchronous: Synchronous = .full, maximumReaderCount: Int = 8,
            logger: Logger = Logger(label: "wopikit.sqlite")
        ) {
            self.busyTimeout = busyTimeout
            self.synchronous = synchronous
            self.maximumReaderCount = maximumReaderCount
            self.logger = logger
        }
    }
}
