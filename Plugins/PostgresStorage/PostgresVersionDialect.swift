import ChunkedVersionStore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization
import WOPIStorage

/// The PostgreSQL side of the chunked-version engine (`ChunkedVersionStore`): its statements run on
/// ``PostgresPool``'s connections, `?` placeholders numbered `$1`, `$2`, ….
struct PostgresVersionDialect: ChunkedVersionDialect {
    let database: PostgresPool
    /// Where chunks of at least one piece keep their bytes when not in the database: a bucket all hosts share.
    let chunkBodies: (any ChunkBodyStore)?

    var explicitIdentity: String { "OVERRIDING SYSTEM VALUE" }

    var skipLocked: String { Self.skipLocked }

    /// PostgreSQL's ``skipLocked``, for the plugin's own transactions.
    static let skipLocked = "FOR UPDATE SKIP LOCKED"

    func write(_ action: String, durability: CommitDurability, _ statements: [SQLStatement]) async throws
        -> [[SQLRow]]
    {
        let logger = database.logger
        let removed = RemovedChunkRows()
        let rows = try await database.transaction(action) { connection in
            if case .deferred = durability {
                // The commit returns without waiting for the WAL flush; the switch's commit flushes it.
                try await connection.query("SET LOCAL synchronous_commit = off", logger: logger)
            }
            return try await Self.run(connection, logger: logger, statements, removed: removed)
        }
        removed.committed(to: chunkBodies)
        return rows
    }

    func read(_ action: String, _ statement: SQLStatement) async throws -> [SQLRow] {
        let logger = database.logger
        return try await database.withConnection(action) { connection in
            try await Self.run(connection, logger: logger, statement)
        }
    }

    /// Runs `statements` in order on `connection` (in its current transaction) and returns the rows of each; the rows
    /// of those that delete chunks go to `removed`, for ``RemovedChunkRows/committed(to:)`` after the commit.
    static func run(
        _ connection: PostgresConnection, logger: Logger, _ statements: [SQLStatement], removed: RemovedChunkRows
    ) async throws -> [[SQLRow]] {
        var results: [[SQLRow]] = []
        results.reserveCapacity(statements.count)
        for statement in statements {
            let rows = try await run(connection, logger: logger, statement)
            if statement.removesChunks { removed.append(rows) }
            results.append(rows)
        }
        return results
    }

    /// Runs one statement and returns its rows, checked against what the statement expects. Blobs are the
    /// connection's own buffers (no copy).
    static func run(_ connection: PostgresConnection, logger: Logger, _ statement: SQLStatement) async throws
        -> [SQLRow]
    {
        var bindings = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .integer(let value): bindings.append(value)
            case .real(let value): bindings.append(value)
            case .text(let value): bindings.append(value)
            case .blob(let value): try bindings.append(value)
            case .null: bindings.appendNull()
            }
        }
        let query = PostgresQuery(unsafeSQL: statement.numberedSQL, binds: bindings)
        var rows: [SQLRow] = []
        for try await row in try await connection.query(query, logger: logger) {
            var values: SQLRow = []
            values.reserveCapacity(statement.columns.count)
            for (column, cell) in zip(statement.columns, row) {
                guard cell.bytes != nil else {
                    values.append(.null)
                    continue
                }
                switch column {
                case .integer: values.append(.integer(try cell.decode(Int64.self)))
                case .real: values.append(.real(try cell.decode(Double.self)))
                case .text: values.append(.text(try cell.decode(String.self)))
                case .blob: values.append(.blob(try cell.decode(ByteBuffer.self)))
                }
            }
            rows.append(values)
        }
        return try statement.checked(rows)
    }
}

/// The rows of the statements of one transaction that deleted chunks (``SQLStatement/removesChunks``), whose bodies
/// go once it committed.
final class RemovedChunkRows: Sendable {
    private let rows = Mutex<[SQLRow]>([])

    func append(_ new: [SQLRow]) { rows.withLock { $0 += new } }

    /// Hands the rows to `bodies` (the transaction committed), if any.
    func committed(to bodies: (any ChunkBodyStore)?) {
        let removed = rows.withLock { rows in
            defer { rows.removeAll() }
            return rows
        }
        guard let bodies, !removed.isEmpty else { return }
        bodies.removeCommitted(removed)
    }
}
