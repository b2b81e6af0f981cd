import Testing
import WOPIStorage
import WOPIStorageConformance

@Suite("Conformance of the in-memory references")
struct StorageConformanceTests {
    @Test(arguments: StorageConformance.cases)
    func inMemoryStorage(_ conformance: StorageConformanceCase) async throws {
        try await conformance.run { InMemoryStorage() }
    }

    @Test(arguments: LockStoreConformance.cases)
    func inMemoryLockStore(_ conformance: LockStoreConformanceCase) async throws {
        try await conformance.run { now in InMemoryLockStore(now: now) }
    }
}
