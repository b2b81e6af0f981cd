import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPIStorage
import WOPIStorageConformance

@Suite("PostgreSQL storage conformance")
struct PostgresConformanceTests {
    @Test(arguments: StorageConformance.cases)
    func storage(_ conformance: StorageConformanceCase) async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        try await conformance.run { try await PostgresStorage.open(database: database) }
        await database.shutdown()
    }

    @Test(arguments: LockStoreConformance.cases)
    func lockStore(_ conformance: LockStoreConformanceCase) async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        try await conformance.run { now in try await PostgresLockStore.open(database: database, now: now) }
        await database.shutdown()
    }
}
