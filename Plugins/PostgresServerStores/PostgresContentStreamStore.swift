import JSONRecordCodec
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIServer
public import WOPIStorage

/// A ``WOPIServer/ContentStreamStore`` in a ``PostgresStorage/PostgresPool``: every host on the database sees the
/// same alternate content streams, content properties and sequence numbers (CSPP Plus).
///
/// One row per file in the `content_streams` table of ``schema`` (its one definition): the sequence number in a
/// column, the record as JSON. A compare-and-swap is one statement (an insert that does nothing on conflict, or an
/// update guarded by the expected sequence number), so two hosts never both win.
public final class PostgresContentStreamStore: ContentStreamStore {
    /// The table of the content stream store.
    public static let schema: PostgresSchema = .init(StoreTables.contentStreams)

    /// The database the records live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the store in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresContentStreamStore {
        try await database.install(schema)
        return PostgresContentStreamStore(database: database)
    }

    public func record(of file: ItemID) async throws -> ContentStreamRecord? {
        try await database.values(
            "read the content streams of \(file)", String.self,
            "SELECT record FROM content_streams WHERE file_id = \(file.rawValue)"
        ).first.map(JSONRecordCodec.decode)
    }

    public func compareAndSwap(file: ItemID, expectedSequenceNumber: Int64?, new: ContentStreamRecord) async throws
        -> Bool
    {
        let json = try JSONRecordCodec.encode(new)
        guard let expected = expectedSequenceNumber else {
            return try await database.execute(
                "store the content streams of \(file)",
                """
                INSERT INTO content_streams (file_id, sequence_number, record)
                VALUES (\(file.rawValue), \(new.sequenceNumber), \(json))
                ON CONFLICT (file_id) DO NOTHING RETURNING 1
                """) == 1
        }
        return try await database.execute(
            "change the content streams of \(file)",
            """
            UPDATE content_streams SET sequence_number = \(new.sequenceNumber), record = \(json)
            WHERE file_id = \(file.rawValue) AND sequence_number = \(expected) RETURNING 1
            """) == 1
    }

    public func removeRecord(of file: ItemID) async throws {
        try await database.execute(
            "forget the content streams of \(file)", "DELETE FROM content_streams WHERE file_id = \(file.rawValue)")
    }
}
