import ChunkedVersionStore
import Foundation
import GRDB
import NIOCore
import WOPIStorage

/// The SQLite side of the chunked-version engine (`ChunkedVersionStore`): its statements run on the pool's
/// connections through GRDB's async `read` and `write`, which run the work on GRDB's own dispatch queues, off the
/// cooperative thread pool. Chunks of at least one piece are bodies outside the database (``chunkBodies``): files
/// beside it by default.
struct SQLiteVersionDialect: ChunkedVersionDialect {
    let pool: DatabasePool
    let chunkBodies: (any ChunkBodyStore)?

    var explicitIdentity: String { "" }

    var skipLocked: String { "" }

    func write(_ action: String, durability: CommitDurability, _ statements: [SQLStatement]) async throws
        -> [[SQLRow]]
    {
        try await SQLiteErrorMapping.perform(action) {
            switch durability {
            case .configured:
                return try await pool.write { db in try run(db, statements) }
            case .deferred:
                return try await pool.writeWithoutTransaction { db in try runDeferred(db, statements) }
            }
        }
    }

    func read(_ action: String, _ statement: SQLStatement) async throws -> [SQLRow] {
        try await SQLiteErrorMapping.perform(action) {
            try await pool.read { db in try run(db, statement) }
        }
    }

    /// Runs `statements` in one `IMMEDIATE` transaction committed with `synchronous = NORMAL`: in WAL mode the
    /// commit returns without an fsync of the log, and the next commit at the database's own level (`FULL` by
    /// default) makes it durable with its own (Docs/benchmarks.md, *Third round*).
    private func runDeferred(_ db: Database, _ statements: [SQLStatement]) throws -> [[SQLRow]] {
        // The writer connection's level (2 = FULL, 3 = EXTRA), restored before the next writer runs.
        let level = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
        let relaxed = level > 1
        if relaxed { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        var rows: [[SQLRow]] = []
        let stored = Result {
            try db.inTransaction(.immediate) {
                rows = try run(db, statements)
                return .commit
            }
        }
        if relaxed { try db.execute(sql: "PRAGMA synchronous = \(level)") }
        try stored.get()
        return rows
    }

    /// Runs `statements` in order in the current transaction and returns the rows of each.
    func run(_ db: Database, _ statements: [SQLStatement]) throws -> [[SQLRow]] {
        try statements.map { try run(db, $0) }
    }

    /// Runs one statement in the current transaction and returns its rows, checked against what the statement
    /// expects; the files of the chunks it deletes (``SQLStatement/removesChunks``) go once the transaction commits.
    func run(_ db: Database, _ statement: SQLStatement) throws -> [SQLRow] {
        let rows = try Self.rows(db, statement)
        if statement.removesChunks, let chunkBodies, !rows.isEmpty {
            db.afterNextTransaction(onCommit: { _ in chunkBodies.removeCommitted(rows) })
        }
        return rows
    }

    /// Runs one statement (prepared once per connection and reused) and returns its rows, checked against what
    /// the statement expects. Blobs are copied once, from SQLite's row buffer into a byte buffer.
    static func rows(_ db: Database, _ statement: SQLStatement) throws -> [SQLRow] {
        let prepared = try db.cachedStatement(sql: statement.sql)
        let arguments = StatementArguments(
            statement.arguments.map { argument -> (any DatabaseValueConvertible)? in
                switch argument {
                case .integer(let value): return value
                case .real(let value): return value
                case .text(let value): return value
                case .blob(let value): return value
                case .null: return nil
                }
            })
        guard !statement.columns.isEmpty else {
            try prepared.execute(arguments: arguments)
            return try statement.checked([])
        }
        var rows: [SQLRow] = []
        let cursor = try Row.fetchCursor(prepared, arguments: arguments)
        while let row = try cursor.next() {
            rows.append(
                try statement.columns.indices.map { index in
                    switch statement.columns[index] {
                    case .integer:
                        return (row[index] as Int64?).map(SQLValue.integer) ?? .null
                    case .real:
                        return (row[index] as Double?).map(SQLValue.real) ?? .null
                    case .text:
                        return (row[index] as String?).map(SQLValue.text) ?? .null
                    case .blob:
                        return try row.withUnsafeData(atIndex: index) { data -> SQLValue in
                            guard let data else { return .null }
                            var buffer = ByteBufferAllocator().buffer(capacity: data.count)
                            data.withUnsafeBytes { _ = buffer.writeBytes($0) }
                            return .blob(buffer)
                        }
                    }
                })
        }
        return try statement.checked(rows)
    }
}
