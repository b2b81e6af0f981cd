public import Foundation
public import NIOPosix
public import WOPIModels
public import WOPIStorage

/// An ``ActivityLog`` in one JSON file, safe to share between processes (for the file-system deployment).
///
/// Every change is made under an exclusive lock and written back atomically and durably (mode 0600). The file
/// grows with every activity: meant for small deployments; `SQLiteActivityLog` keeps them in the database.
public struct FileActivityLog: ActivityLog {
    private let file: SharedJSONFile<[RecordedActivity]>

    /// Creates a log backed by the JSON file at `url` (created on the first activity).
    ///
    /// - Parameter threadPool: the pool that runs the blocking file I/O.
    public init(url: URL, threadPool: NIOThreadPool = .singleton) {
        file = SharedJSONFile(url: url, threadPool: threadPool, initial: { [] })
    }

    public func append(_ activities: [FileActivity], on file: ItemID, by userID: String, at date: Date) async throws {
        let new = RecordedActivity.records(of: activities, on: file, by: userID, at: date)
        try await self.file.update { $0.append(contentsOf: new) }
    }

    public func activities(on file: ItemID) async throws -> [RecordedActivity] {
        try await self.file.read().filter { $0.fileID == file }
    }
}
