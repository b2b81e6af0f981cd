public import Foundation
import GRDB
public import SQLiteStorage
import ServerStoreTables
public import WOPIModels
public import WOPIServer
public import WOPIStorage

/// A ``WOPIServer/ActivityLog`` in a ``SQLiteStorage/SQLiteDatabase``: one row per AddActivities activity, in the
/// `activities` table of the migrations in ``schema``, indexed by file.
public final class SQLiteActivityLog: ActivityLog {
    /// The tables of the activity log.
    public static let schema: SQLiteSchema = .init(StoreTables.activities)

    /// The database the activities live in.
    public let database: SQLiteDatabase

    /// Opens the log in `database`, installing or upgrading its table.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
    }

    public func append(_ activities: [FileActivity], on file: ItemID, by userID: String, at date: Date) async throws {
        let records = RecordedActivity.records(of: activities, on: file, by: userID, at: date)
        try await database.write("store \(records.count) activities on \(file)") { db in
            for record in records {
                try db.execute(
                    sql: """
                        INSERT INTO activities (file_id, user_id, received_at, type, activity_id, json)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        record.fileID.rawValue, record.userID, record.receivedAt.timeIntervalSince1970, record.type,
                        record.activityID, record.json,
                    ])
            }
        }
    }

    public func activities(on file: ItemID) async throws -> [RecordedActivity] {
        try await database.read("read the activities on \(file)") { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM activities WHERE file_id = ? ORDER BY seq", arguments: [file.rawValue]
            )
            .map { row in
                RecordedActivity(
                    fileID: file, userID: row["user_id"],
                    receivedAt: Date(timeIntervalSince1970: row["received_at"]), type: row["type"],
                    activityID: row["activity_id"], json: row["json"])
            }
        }
    }
}
