import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPIStorage
import WOPIStorageConformance

@Suite("PostgreSQL storage conformance")
struct PostgresConformanceTests {
    @Test(arguments: StorageConformance.cases + StorageConformance.chunkedContentCases)
    func storage(_ conformance: StorageConformanceCase) async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        try await conformance.run { try await PostgresStorage.open(database: database) }
        await database.shutdown()
    }

    @Test(arguments: LockStoreConformance.cases)
    func lockStore(_ conformance: LockStoreConformanceCase) async throws {
        let server = try await PostgresServer.shared.value
        let configuration = try await server.makeDatabase()
        let database = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        // The peer is another host: its own pool of connections to the same database.
        let peerDatabase = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        try await conformance.run(
            { now in try await PostgresLockStore.open(database: database, now: now) },
            peer: { now in try await PostgresLockStore.open(database: peerDatabase, now: now) })
        await database.shutdown()
        await peerDatabase.shutdown()
    }
}
