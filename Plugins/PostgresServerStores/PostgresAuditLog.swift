import Foundation
import JSONRecordCodec
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIServer

/// An ``WOPIServer/AuditLog`` in a ``PostgresStorage/PostgresPool``, shared by every host of a deployment: one row
/// per event in the `audit_events` table of ``schema`` (the event as JSON beside the columns a query filters on),
/// in the order recorded (an identity column).
public final class PostgresAuditLog: AuditLog {
    /// The table of the audit log.
    public static let schema: PostgresSchema = .init(StoreTables.audit)

    /// The database the events live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the log in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresAuditLog {
        try await database.install(schema)
        return PostgresAuditLog(database: database)
    }

    public func record(_ event: AuditEvent) async throws {
        let json = try JSONRecordCodec.encode(event)
        try await database.execute(
            "record the audit event \(event.action)",
            """
            INSERT INTO audit_events (at, user_id, item_id, json)
            VALUES (\(event.date.timeIntervalSince1970), \(event.userID), \(event.itemID), \(json))
            """)
    }

    public func events(matching query: AuditQuery) async throws -> [AuditEvent] {
        let since = query.since?.timeIntervalSince1970
        let rows = try await database.values(
            "read the audit log", String.self,
            """
            SELECT json FROM audit_events
            WHERE (\(since)::DOUBLE PRECISION IS NULL OR at >= \(since))
              AND (\(query.userID)::TEXT IS NULL OR user_id = \(query.userID))
              AND (\(query.itemID)::TEXT IS NULL OR item_id = \(query.itemID))
            ORDER BY seq
            """)
        return try rows.map { try JSONRecordCodec.decode($0) }
    }
}
