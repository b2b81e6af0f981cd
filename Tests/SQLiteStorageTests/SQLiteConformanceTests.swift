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
        // The kit's expiry case gives a lock 0.3 s to live; an fsync per commit on a disk busy with the other
        // tests can take longer than that, so these stores skip it (lock semantics do not depend on it).
        try await conformance.run { try SQLiteLockStore(database: file.openDatabase(synchronous: .normal)) }
    }
}
