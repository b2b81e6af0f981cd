public import Foundation
import Synchronization
public import WOPIModels
public import WOPIStorage

/// An ``ActivityLog`` in this process's memory (the host's default).
public final class InMemoryActivityLog: ActivityLog {
    private let records = Mutex<[RecordedActivity]>([])

    /// Creates an empty log.
    public init() {}

    public func append(_ activities: [FileActivity], on file: ItemID, by userID: String, at date: Date) async throws {
        let new = RecordedActivity.records(of: activities, on: file, by: userID, at: date)
        records.withLock { $0.append(contentsOf: new) }
    }

    public func activities(on file: ItemID) async throws -> [RecordedActivity] {
        records.withLock { $0.filter { $0.fileID == file } }
    }
}
