import ChunkedVersionStore
import SQLiteStorage
import Testing
import WOPIStorage
import WOPIStorageConformance

@Suite("SQLite version conformance")
struct SQLiteVersionConformanceTests {
    /// The peer opens the same file through a second connection pool, as another host process does.
    @Test(arguments: VersionConformance.cases)
    func versions(_ conformance: VersionConformanceCase) async throws {
        let file = try TemporaryDatabaseFile()
        let open: VersionConformanceCase.Factory = { retention, now in
            try file.openStorage(.init(versionRetention: retention, now: now))
        }
        try await conformance.run(open, peer: open)
    }
}
