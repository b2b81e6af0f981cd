import Foundation
import GRDB
import JSONRecordCodec
public import SQLiteStorage
import ServerStoreTables
public import WOPIServer

/// An ``WOPIServer/AuditLog`` in a ``SQLiteStorage/SQLiteDatabase``: one row per event in the `audit_events` table
/// of ``schema`` (the event as JSON beside the columns a query filters on), in the order recorded.
///
/// Events recorded at the same time share one write transaction, on the database every save also writes to: a host
/// that opens files often may prefer ``WOPIServer/FileAuditLog``, which appends to a file (`DeploymentStores.sqlite`
/// does).
public final class SQLiteAuditLog: GroupCommitAuditLog {
    /// The table of the audit log.
    public static let schema: SQLiteSchema = .init(StoreTables.audit)

    /// The database the events live in.
    public let database: SQLiteDatabase
    /// The batches its events are written in.
    public let batches: AuditGroupCommit

    /// Opens the log in `database`, installing or upgrading its table.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
        batches = AuditGroupCommit { events in
            let rows = try events.map { ($0, try JSONRecordCodec.encode($0)) }
            try await database.write(events.recordingAction) { db in
                for (event, json) in rows {
                    try db.execute(
                        sql: "INSERT INTO audit_events (at, user_id, item_id, json) VALUES (?, ?, ?, ?)",
                        arguments: [event.date.timeIntervalSince1970, event.userID, event.itemID, json])
                }
            }
        }
    }

    public func events(matching query: AuditQuery) async throws -> [AuditEvent] {
        await batches.flush()
        let rows = try await database.read("read the audit log") { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT json FROM audit_events
                    WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR user_id = ?2) AND (?3 IS NULL OR item_id = ?3)
                    ORDER BY seq
                    """,
                arguments: [query.since?.timeIntervalSince1970, query.userID, query.itemID])
        }
        return try rows.map { try JSONRecordCodec.decode($0) }
    }
}
