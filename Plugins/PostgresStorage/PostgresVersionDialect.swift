import ChunkedVersionStore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import WOPIStorage

/// The PostgreSQL side of the chunked-version engine (`ChunkedVersionStore`): its statements run on
/// ``PostgresPool``'s connections, `?` placeholders numbered `$1`, `$2`, ….
struct PostgresVersionDialect: ChunkedVersionDialect {
    let database: PostgresPool

    var explicitIdentity: String { "OVERRIDING SYSTEM VALUE" }

    var skipLocked: String { Self.skipLocked }

    /// None: every chunk is pieces in the database, which all hosts share (they share no file system).
    var chunkFiles: ChunkFiles? { nil }

    /// PostgreSQL's ``skipLocked``, for the plugin's own transactions.
    static let skipLocked = "FOR UPDATE SKIP LOCKED"

    func write(_ action: String, durability: CommitDurability, _ statements: [SQLStatement]) async throws
        -> [[SQLRow]]
    {
        let logger = database.logger
        return try await database.transaction(action) { connection in
            if case .deferred = durability {
                // The commit returns without waiting for the WAL flush; the switch's commit flushes it.
                try await connection.query("SET LOCAL synchronous_commit = off", logger: logger)
            }
            return try await Self.run(connection, logger: logger, statements)
        }
    }

    func read(_ action: String, _ statement: SQLStatement) async throws -> [SQLRow] {
        let logger = database.logger
        return try await database.withConnection(action) { connection in
            try await Self.run(connection, logger: logger, statement)
        }
    }

    /// Runs `statements` in order on `connection` (in its current transaction) and returns the rows of each.
    static func run(_ connection: PostgresConnection, logger: Logger, _ statements: [SQLStatement]) async throws
        -> [[SQLRow]]
    {
        var results: [[SQLRow]] = []
        results.reserveCapacity(statements.count)
        for statement in statements { results.append(try await run(connection, logger: logger, statement)) }
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
