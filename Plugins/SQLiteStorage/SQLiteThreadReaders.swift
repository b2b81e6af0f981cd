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
final class SQLiteThreadReaders: Sendable {
    /// One thread's connections, by database. Touched only by its own thread.
    private final class Table: @unchecked Sendable {
        var connections: [UInt64: (queue: DatabaseQueue, owner: Weak)] = [:]
    }

    private struct Weak: @unchecked Sendable {
        weak var readers: SQLiteThreadReaders?
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
        if let connection = table.connections[id] { return try connection.queue.inDatabase(body) }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let registered = opened.withLock { opened -> Bool in
            guard opened != nil else { return false }
            opened?.append(queue)
            return true
        }
        guard registered else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The database is closed.") }
        // A thread keeps no connection of a database that is gone or closed.
        table.connections = table.connections.filter { $0.value.owner.readers?.isClosed == false }
        table.connections[id] = (queue, Weak(readers: self))
        return try queue.inDatabase(body)
    }

    private var isClosed: Bool { opened.withLock { $0 == nil } }

    /// Closes every connection; later reads fail.
    func close() {
        let queues = opened.withLock { opened in
            defer { opened = nil }
            return opened ?? []
        }
        for queue in queues { try? queue.close() }
    }
}
