import SQLiteStorage
import Testing
import WOPIStorage
import WOPIStorageConformance

@Suite("SQLite storage conformance")
struct SQLiteConformanceTests {
    @Test(arguments: StorageConformance.cases + StorageConformance.chunkedContentCases)
    func storage(_ conformance: StorageConformanceCase) async throws {
        let file = try TemporaryDatabaseFile()
        try await conformance.run { try file.openStorage() }
    }

    @Test(arguments: LockStoreConformance.cases)
    func lockStore(_ conformance: LockStoreConformanceCase) async throws {
        let file = try TemporaryDatabaseFile()
        // The fsync per commit is skipped here (lock semantics do not depend on it); the kit's clock decides expiry.
        // The peer opens the same file through a second connection pool, as another host process does.
        try await conformance.run(
            { now in try SQLiteLockStore(database: file.openDatabase(synchronous: .normal), now: now) },
            peer: { now in try SQLiteLockStore(database: file.openDatabase(synchronous: .normal), now: now) })
    }
}
