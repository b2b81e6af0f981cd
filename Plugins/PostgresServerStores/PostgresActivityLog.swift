public import Foundation
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIModels
public import WOPIServer
public import WOPIStorage

/// An ``WOPIServer/ActivityLog`` in a ``PostgresStorage/PostgresPool``, shared by every host of a deployment.
///
/// One row per activity in the `activities` table of ``schema``, in arrival order (an identity column).
public final class PostgresActivityLog: ActivityLog {
    /// The table of the activity log.
    public static let schema: PostgresSchema = .init(StoreTables.activities)

    /// The database the activities live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the log in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresActivityLog {
        try await database.install(schema)
        return PostgresActivityLog(database: database)
    }

    public func append(_ activities: [FileActivity], on file: ItemID, by userID: String, at date: Date) async throws {
        let records = RecordedActivity.records(of: activities, on: file, by: userID, at: date)
        let logger = database.logger
        try await database.transaction("store \(records.count) activities on \(file)") { connection in
            for record in records {
                try await connection.query(
                    """
                    INSERT INTO activities (file_id, user_id, received_at, type, activity_id, json)
                    VALUES (\(record.fileID.rawValue), \(record.userID), \(record.receivedAt.timeIntervalSince1970),
                            \(record.type), \(record.activityID), \(record.json))
                    """, logger: logger)
            }
        }
    }

    public func activities(on file: ItemID) async throws -> [RecordedActivity] {
        let logger = database.logger
        return try await database.withConnection("read the activities on \(file)") { connection in
            var result: [RecordedActivity] = []
            let rows = try await connection.query(
                """
                SELECT user_id, received_at, type, activity_id, json FROM activities
                WHERE file_id = \(file.rawValue) ORDER BY seq
                """, logger: logger
            ).decode((String, Double, String, String, String).self)
            for try await (userID, receivedAt, type, activityID, json) in rows {
                result.append(
                    RecordedActivity(
                        fileID: file, userID: userID, receivedAt: Date(timeIntervalSince1970: receivedAt), type: type,
                        activityID: activityID, json: json))
            }
            return result
        }
    }
}
