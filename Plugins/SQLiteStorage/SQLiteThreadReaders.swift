import GRDB
import NIOPosix
import Synchronization

/// The read-only connections of one database file, one per thread that reads: a short metadata read runs on the
/// thread that asks for it, event loop included, with no hop to a GRDB queue or a thread pool and back
/// (`Docs/architecture.md`, "Short metadata reads run where the request runs").
///
/// Each connection is opened read-only on the first read of its thread, maps the file into memory and keeps its
/// prepared statements (`Database.cachedStatement`). Its GRDB queue is the thread's own, so GRDB's `sync` never
/// waits for another thread. A WAL reader takes no lock a writer holds; when SQLite still answers `SQLITE_BUSY` (a
/// WAL reset or recovery in another process) the read fails at once (`busyMode = .immediateError`) and
/// ``SQLiteDatabase/readStatement(_:_:)`` retries it on the pool, off the calling thread.
///
/// A thread's table holds its connections weakly: the database's `opened` list owns them and closes them on the
/// thread that closes the database. A table that owned them would free the last connections of a closed database
/// in the thread's exit, in a thread-specific destructor; GRDB's close then uses libdispatch after libdispatch has
/// freed the thread's own state, which corrupted the heap ("double free or corruption" in libdispatch's
/// thread-exit cleanup, when an idle cooperative thread exited).
final class SQLiteThreadReaders: Sendable {
    /// One thread's connections, by database. Touched only by its own thread.
    private final class Table: @unchecked Sendable {
        var connections: [UInt64: WeakQueue] = [:]
    }

    private struct WeakQueue: @unchecked Sendable {
        weak var queue: DatabaseQueue?
    }

    private static let tables = ThreadSpecificVariable<Table>()
    private static let nextID = Atomic<UInt64>(0)

    private let id: UInt64
    private let path: String
    private let configuration: GRDB.Configuration
    /// Every connection opened for this database, to close them with it; `nil` once closed.
    private let opened = Mutex<[DatabaseQueue]?>([])

    /// Readers of the file at `path`; `mapSize` bytes of it are memory-mapped by each connection.
    init(path: String, label: String, mapSize: Int = 256 << 20) {
        self.id = Self.nextID.add(1, ordering: .relaxed).newValue
        self.path = path
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.busyMode = .immediateError
        configuration.label = "\(label).inline-reader"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(mapSize)") }
        self.configuration = configuration
    }

    deinit { close() }

    /// Runs `body` on the calling thread's connection, opening it on the thread's first read.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let table: Table
        if let current = Self.tables.currentValue {
            table = current
        } else {
            table = Table()
            Self.tables.currentValue = table
        }
        if let queue = table.connections[id]?.queue { return try queue.inDatabase(body) }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let registered = opened.withLock { opened -> Bool in
            guard opened != nil else { return false }
            opened?.append(queue)
            return true
        }
        guard registered else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The database is closed.") }
        // A thread keeps no entry for a connection that is gone (its database closed).
        table.connections = table.connections.filter { $0.value.queue != nil }
        table.connections[id] = WeakQueue(queue: queue)
        return try queue.inDatabase(body)
    }

    /// Closes every connection; later reads fail.
    func close() {
        let queues = opened.withLock { opened in
            defer { opened = nil }
            return opened ?? []
        }
        for queue in queues { try? queue.close() }
    }
}
