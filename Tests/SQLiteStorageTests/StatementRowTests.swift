import Foundation
import GRDB
import SQLiteStorage
import Testing
import WOPIStorage

/// Rows read by column position straight from SQLite's buffer: values, NULLs, several rows and none, and the
/// statement left reset for its next use.
struct StatementRowTests {
    private let queue: DatabaseQueue

    init() throws {
        queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, size INTEGER, score REAL, digest BLOB);
                    INSERT INTO t VALUES (1, 'a long name, past any small string', 42, 1.5, x'00ff'),
                                         (2, NULL, NULL, NULL, NULL), (3, '12abc', 7, 0, x'');
                    """)
        }
    }

    @Test func aRowIsReadByPositionWithItsNulls() throws {
        try queue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT name, size, score, digest FROM t WHERE id = ?")
            let first = try StatementRow.first(statement, arguments: [1]) { row in
                (
                    try row.required(0) as String, row.optional(1) as Int64?, row.optional(2) as Double?,
                    row.optional(3) as Data?, row.isNull(0)
                )
            }
            let values = try #require(first)
            #expect(values.0 == "a long name, past any small string")
            #expect(values.1 == 42)
            #expect(values.2 == 1.5)
            #expect(values.3 == Data([0x00, 0xFF]))
            #expect(values.4 == false)

            let nulls = try StatementRow.first(statement, arguments: [2]) { row in
                (row.isNull(0), row.optional(0) as String?, row.optional(1) as Int64?, row.isNull(3))
            }
            #expect(nulls?.0 == true)
            #expect(nulls?.1 == nil)
            #expect(nulls?.2 == nil)
            #expect(nulls?.3 == true)
            // Telling NULL from a value does not turn a text that starts with digits into a number.
            let text = try StatementRow.first(statement, arguments: [3]) { row in
                (row.isNull(0), row.optional(0) as String?)
            }
            #expect(text?.0 == false)
            #expect(text?.1 == "12abc")
        }
    }

    @Test func aRequiredNullIsACorruptDatabase() throws {
        try queue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT name FROM t WHERE id = ?")
            #expect {
                _ = try StatementRow.first(statement, arguments: [2]) { row in try row.required(0) as String }
            } throws: { error in
                guard let error = error as? StorageError else { return false }
                return error.code == .corrupt && error.message.contains("column name")
            }
        }
    }

    @Test func everyRowIsMappedAndNoneIsNil() throws {
        try queue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT id, name FROM t WHERE id >= ? ORDER BY id")
            let rows = try StatementRow.map(statement, arguments: [1]) { row in
                "\(try row.required(0) as Int64):\(row.optional(1) as String? ?? "-")"
            }
            #expect(rows == ["1:a long name, past any small string", "2:-", "3:12abc"])
            #expect(try StatementRow.first(statement, arguments: [9]) { _ in true } == nil)
            #expect(try StatementRow.map(statement, arguments: [9]) { _ in true }.isEmpty)
            // The statement was reset after each use: it runs again from its first row.
            #expect(try StatementRow.first(statement, arguments: [1]) { try $0.required(0) as Int64 } == 1)
        }
    }
}
