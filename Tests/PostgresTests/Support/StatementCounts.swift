import PostgresNIO
import PostgresStorage

/// The statements one database ran, as PostgreSQL counts them (`pg_stat_statements`, which `PostgresServer`
/// preloads): each statement a client sends is one round trip, `BEGIN` and `COMMIT` included, so the difference
/// of two snapshots is what the work between them cost the database.
struct StatementCounts: Equatable, CustomStringConvertible {
    /// Calls by statement text (normalised by PostgreSQL: constants become `$1`, `$2`, ...).
    var calls: [String: Int]

    /// Every call.
    var total: Int { calls.values.reduce(0, +) }

    /// The statements of `database` counted so far, without the counting's own.
    static func snapshot(_ database: PostgresPool) async throws -> StatementCounts {
        try await database.execute("count statements", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        let rows = try await database.client.query(
            """
            SELECT query, calls FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND query NOT LIKE '%pg_stat_statements%'
            """
        ).decode((String, Int64).self)
        var calls: [String: Int] = [:]
        for try await (query, count) in rows { calls[query, default: 0] += Int(count) }
        return StatementCounts(calls: calls)
    }

    /// What ran after `earlier`.
    func since(_ earlier: StatementCounts) -> StatementCounts {
        var delta: [String: Int] = [:]
        for (query, count) in calls where count > earlier.calls[query] ?? 0 {
            delta[query] = count - (earlier.calls[query] ?? 0)
        }
        return StatementCounts(calls: delta)
    }

    var description: String {
        calls.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "\n")
    }
}
