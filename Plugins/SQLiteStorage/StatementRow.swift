package import GRDB
import WOPIStorage

/// The row a statement stands on, read by column position straight from SQLite's buffer, without GRDB's `Row`.
///
/// `Row.fetchCursor` indexes the statement's column names on every execution (a lowercased copy of each, in a
/// dictionary), for `row["name"]`. On the host's most frequent statement, CheckFileInfo's authorization with its 16
/// columns, that cost 1.8% of the host's CPU; a read by position needs none of it.
package struct StatementRow {
    /// The statement, whose column names only an error reads.
    private let statement: Statement

    /// The value of column `index`, or `nil` when it is NULL.
    package func optional<Value: StatementColumnConvertible>(_ index: Int) -> Value? {
        Value.fromStatement(statement.sqliteStatement, atUncheckedIndex: CInt(index))
    }

    /// Whether column `index` is NULL; a text is not copied to tell.
    package func isNull(_ index: Int) -> Bool {
        Int64?.fromStatement(statement.sqliteStatement, atUncheckedIndex: CInt(index)) == .some(nil)
    }

    /// The value of column `index`; a NULL throws, naming the column, as the database then breaks a rule of its own
    /// schema.
    package func required<Value: StatementColumnConvertible>(_ index: Int) throws -> Value {
        guard let value: Value = optional(index) else {
            let column = statement.columnNames[index]
            throw StorageError(
                .corrupt, "The database holds NULL in column \(column), where a value is required; restore a backup.")
        }
        return value
    }

    /// `decode` of each row `statement` selects with `arguments`. The row is read in place: `decode` copies what it
    /// keeps.
    package static func map<Element>(
        _ statement: Statement, arguments: StatementArguments, _ decode: (StatementRow) throws -> Element
    ) throws -> [Element] {
        let cursor = try stepping(statement, arguments)
        let row = StatementRow(statement: statement)
        return try withExtendedLifetime(cursor) {
            var elements: [Element] = []
            while try cursor.next() != nil { elements.append(try decode(row)) }
            return elements
        }
    }

    /// `decode` of the first row `statement` selects with `arguments`, or `nil` when it selects none.
    package static func first<Element>(
        _ statement: Statement, arguments: StatementArguments, _ decode: (StatementRow) throws -> Element
    ) throws -> Element? {
        let cursor = try stepping(statement, arguments)
        return try withExtendedLifetime(cursor) {
            guard try cursor.next() != nil else { return nil }
            return try decode(StatementRow(statement: statement))
        }
    }

    /// A cursor that steps `statement` and resets it when it goes. It decodes the first column as an integer and
    /// nothing else (`sqlite3_column_int64` of a text only parses it); the row must not outlive it.
    private static func stepping(_ statement: Statement, _ arguments: StatementArguments) throws
        -> FastDatabaseValueCursor<Int64?>
    {
        try Int64?.fetchCursor(statement, arguments: arguments)
    }
}
