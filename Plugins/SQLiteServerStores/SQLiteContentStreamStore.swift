import GRDB
import JSONRecordCodec
public import SQLiteStorage
import ServerStoreTables
public import WOPIServer
public import WOPIStorage

/// A ``WOPIServer/ContentStreamStore`` in a ``SQLiteStorage/SQLiteDatabase``: the files' alternate content
/// streams, content properties and sequence numbers (CSPP Plus) survive a restart and are shared by every process
/// on the database file.
///
/// One row per file in the `content_streams` table of ``schema`` (its one definition): the sequence number in a
/// column, the record as JSON. A compare-and-swap is one write transaction.
public final class SQLiteContentStreamStore: ContentStreamStore {
    /// The table of the content stream store.
    public static let schema: SQLiteSchema = .init(StoreTables.contentStreams)

    /// The database the records live in.
    public let database: SQLiteDatabase

    /// Opens the store in `database`, installing or upgrading its table.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
    }

    public func record(of file: ItemID) async throws -> ContentStreamRecord? {
        let json = try await database.read("read the content streams of \(file)") { db in
            try String.fetchOne(
                db, sql: "SELECT record FROM content_streams WHERE file_id = ?", arguments: [file.rawValue])
        }
        return try json.map { try JSONRecordCodec.decode($0) }
    }

    public func compareAndSwap(file: ItemID, expectedSequenceNumber: Int64?, new: ContentStreamRecord) async throws
        -> Bool
    {
        let json = try JSONRecordCodec.encode(new)
        return try await database.write("change the content streams of \(file)") { db in
            let current = try Int64.fetchOne(
                db, sql: "SELECT sequence_number FROM content_streams WHERE file_id = ?", arguments: [file.rawValue])
            guard current == expectedSequenceNumber else { return false }
            try db.execute(
                sql: """
                    INSERT INTO content_streams (file_id, sequence_number, record) VALUES (?, ?, ?)
                    ON CONFLICT(file_id) DO UPDATE SET sequence_number = excluded.sequence_number, record = excluded.record
                    """,
                arguments: [file.rawValue, new.sequenceNumber, json])
            return true
        }
    }

    public func removeRecord(of file: ItemID) async throws {
        try await database.write("forget the content streams of \(file)") { db in
            try db.execute(sql: "DELETE FROM content_streams WHERE file_id = ?", arguments: [file.rawValue])
        }
    }
}
