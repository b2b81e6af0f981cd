import PostgresNIO
import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// `PostgresPool.Configuration.keepsConnectionsOpen`: a pool that keeps its connections opens all of them at start
/// (its connections then have no idle timer to set on each release); one that does not opens them as operations
/// ask for them.
@Suite struct PoolConnectionTests {
    @Test func aPoolThatKeepsItsConnectionsOpensThemAllAtStart() async throws {
        var configuration = try await PostgresServer.shared.value.makeDatabase(poolSize: 3)
        configuration.keepsConnectionsOpen = true
        let pool = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        let opened = try await Polling.until(every: .milliseconds(50)) { try await Self.connections(of: pool) == 3 }
        #expect(opened, "the pool did not open its 3 connections")
        await pool.shutdown()
    }

    @Test func aPoolThatDoesNotOpensOnlyWhatItUses() async throws {
        var configuration = try await PostgresServer.shared.value.makeDatabase(poolSize: 3)
        configuration.keepsConnectionsOpen = false
        let pool = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        // Opening reached the database on one connection, which counts itself.
        #expect(try await Self.connections(of: pool) == 1)
        await pool.shutdown()
    }

    /// The connections open to the pool's database, its own included.
    private static func connections(of pool: PostgresPool) async throws -> Int {
        let rows = try await pool.client.query(
            "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()")
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
