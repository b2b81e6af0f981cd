import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// `Range` on GetFile and `FileUrl` over the PostgreSQL storage: the checks the other backends pass in
/// `WOPIServerTests` (`ContentRangeScenario`).
@Suite struct PostgresContentRangeTests {
    @Test func rangesAndFileUrl() async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        do {
            try await ContentRangeScenario.run(on: try await PostgresStorage.open(database: database))
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}
