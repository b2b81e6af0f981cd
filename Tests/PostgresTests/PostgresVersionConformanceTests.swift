import ChunkedVersionStore
import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPIStorage
import WOPIStorageConformance

@Suite("PostgreSQL version conformance")
struct PostgresVersionConformanceTests {
    /// The peer is another host: its own pool of connections to the same database.
    @Test(arguments: VersionConformance.cases)
    func versions(_ conformance: VersionConformanceCase) async throws {
        let server = try await PostgresServer.shared.value
        let configuration = try await server.makeDatabase()
        let database = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        let peerDatabase = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        try await conformance.run(
            { retention, now in
                try await PostgresStorage.open(
                    database: database, configuration: .init(versionRetention: retention, now: now))
            },
            peer: { retention, now in
                try await PostgresStorage.open(
                    database: peerDatabase, configuration: .init(versionRetention: retention, now: now))
            })
        await database.shutdown()
        await peerDatabase.shutdown()
    }
}
