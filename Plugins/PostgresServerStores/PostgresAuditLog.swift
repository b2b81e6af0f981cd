import Foundation
import JSONRecordCodec
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIServer

/// An ``WOPIServer/AuditLog`` in a ``PostgresStorage/PostgresPool``, shared by every host of a deployment: one row
/// per event in the `audit_events` table of ``schema`` (the event as JSON beside the columns a query filters on),
/// in the order recorded (an identity column). Events recorded at the same time are inserted by one statement.
public final class PostgresAuditLog: GroupCommitAuditLog {
    /// The table of the audit log.
    public static let schema: PostgresSchema = .init(StoreTables.audit)

    /// The database the events live in.
    public let database: PostgresPool

    /// The batches its events are written in.
    public let batches: AuditGroupCommit

    private init(database: PostgresPool) {
        self.database = database
        batches = AuditGroupCommit { events in try await Self.insert(events, into: database) }
    }

    /// Opens the log in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresAuditLog {
        try await database.install(schema)
        return PostgresAuditLog(database: database)
    }

    /// Inserts `events` in their order, one row each, in one statement.
    private static func insert(_ events: [AuditEvent], into database: PostgresPool) async throws {
        var bindings = PostgresBindings(capacity: events.count * 4)
        var rows: [String] = []
        for (index, event) in events.enumerated() {
            bindings.append(event.date.timeIntervalSince1970)
            bindings.append(event.userID)
            bindings.append(event.itemID)
            bindings.append(try JSONRecordCodec.encode(event))
            let first = index * 4 + 1
            rows.append("($\(first), $\(first + 1), $\(first + 2), $\(first + 3))")
        }
        let sql = "INSERT INTO audit_events (at, user_id, item_id, json) VALUES " + rows.joined(separator: ", ")
        try await database.execute(events.recordingAction, PostgresQuery(unsafeSQL: sql, binds: bindings))
    }

    public func events(matching query: AuditQuery) async throws -> [AuditEvent] {
        await batches.flush()
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
