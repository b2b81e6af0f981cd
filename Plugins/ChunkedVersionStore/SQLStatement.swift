package import Foundation
package import NIOCore
package import WOPIStorage

/// A value bound to a `?` placeholder of an ``SQLStatement``.
package enum SQLArgument: Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null
}

/// A value of a result row.
package enum SQLValue: Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(ByteBuffer)
    case null

    /// The integer, or `nil` for a value of another type or a NULL.
    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The real number, or `nil` for a value of another type or a NULL.
    package var real: Double? {
        if case .real(let value) = self { return value }
        return nil
    }

    /// The text, or `nil` for a value of another type or a NULL.
    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// One row of results, a value per column of ``SQLStatement/columns``.
package typealias SQLRow = [SQLValue]

/// One statement of the chunked-version engine, in the SQL both dialects accept.
///
/// Placeholders are `?`, numbered in order by the dialects that need `$1`, `$2`, …. A statement whose rows are
/// counted (``expectedRows``) says `RETURNING 1`, which SQLite and PostgreSQL both understand.
package struct SQLStatement: Sendable {
    /// The type of a result column.
    package enum Column: Sendable {
        case integer
        case real
        case text
        case blob
    }

    /// The SQL text, with `?` placeholders.
    package var sql: String
    /// The values of the placeholders, in order.
    package var arguments: [SQLArgument]
    /// The types of the columns the statement returns, in order; empty for none.
    package var columns: [Column]
    /// When set, the number of rows the statement must return, and the error that rolls the transaction back
    /// otherwise.
    package var expectedRows: (count: Int, error: StorageError)?
    /// Whether the statement deletes `chunks` rows and returns, per row, its staging version, staging index and
    /// `in_file`: a dialect with ``ChunkedVersionDialect/chunkBodies`` removes those bodies once the transaction
    /// committed (``ChunkBodyStore/removeCommitted(_:)``).
    package var removesChunks: Bool

    package init(
        _ sql: String, _ arguments: [SQLArgument] = [], columns: [Column] = [],
        expecting expectedRows: (count: Int, error: StorageError)? = nil, removesChunks: Bool = false
    ) {
        self.sql = sql
        self.arguments = arguments
        self.columns = columns
        self.expectedRows = expectedRows
        self.removesChunks = removesChunks
    }

    /// Returns `rows`, or throws ``expectedRows``'s error when their number is not the expected one. Each dialect
    /// calls it on the rows of every statement it runs, before the next statement.
    package func checked(_ rows: [SQLRow]) throws -> [SQLRow] {
        if let expectedRows, rows.count != expectedRows.count { throw expectedRows.error }
        return rows
    }

    /// The SQL with each `?` replaced by `$1`, `$2`, … (the engine's SQL has no `?` in literals).
    package var numberedSQL: String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + arguments.count * 2)
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
