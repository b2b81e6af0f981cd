import SQLiteStorage
import Testing
import WOPIStorage
import WOPIStorageConformance

@Suite("SQLite storage conformance")
struct SQLiteConformanceTests {
    @Test(arguments: StorageConformance.cases)
    func storage(_ conformance: StorageConformanceCase) async throws {
        let file = try TemporaryDatabaseFile()
        try await conformance.run { try file.openStorage() }
    }

    @Test(arguments: LockStoreConformance.cases)
    func lockStore(_ conformance: LockStoreConformanceCase) async throws {
        let file = try TemporaryDatabaseFile()
        try await conformance.run { try SQLiteLockStore(database: file.openDatabase()) }
    }
}
