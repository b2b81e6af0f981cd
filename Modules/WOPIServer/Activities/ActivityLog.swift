public import Foundation
public import WOPIModels
public import WOPIStorage

/// Where the comments and mentions that WOPI clients report through AddActivities are kept.
///
/// Open for third-party conformances. WOPIKit ships ``InMemoryActivityLog``, ``FileActivityLog`` and
/// `SQLiteActivityLog` (SQLiteServerStores). A provider that turns mentions into notifications does so in
/// ``ChangeGuard/willChange(_:by:)`` (the `.addActivities` change) and keeps storing them here.
public protocol ActivityLog: Sendable {
    /// Appends `activities` reported on `file` by `userID` at `date`.
    func append(_ activities: [FileActivity], on file: ItemID, by userID: String, at date: Date) async throws

    /// Every activity recorded on `file`, oldest first.
    func activities(on file: ItemID) async throws -> [RecordedActivity]
}

/// An activity as an ``ActivityLog`` keeps it.
public struct RecordedActivity: Sendable, Hashable, Codable {
    /// The file it is about.
    public var fileID: ItemID
    /// The user whose WOPI client reported it.
    public var userID: String
    /// When the host received it.
    public var receivedAt: Date
    /// The activity's type (`comment`, `mention`).
    public var type: String
    /// The client's ID of the activity.
    public var activityID: String
    /// The activity object exactly as sent.
    public var json: String

    /// Creates a record.
    public init(fileID: ItemID, userID: String, receivedAt: Date, type: String, activityID: String, json: String) {
        self.fileID = fileID
        self.userID = userID
        self.receivedAt = receivedAt
        self.type = type
        self.activityID = activityID
        self.json = json
    }

    /// The records of `activities`.
    public static func records(
        of activities: [FileActivity], on file: ItemID, by userID: String, at date: Date
    ) -> [RecordedActivity] {
        activities.map {
            RecordedActivity(
                fileID: file, userID: userID, receivedAt: date, type: $0.type, activityID: $0.id, json: $0.json)
        }
    }
}
