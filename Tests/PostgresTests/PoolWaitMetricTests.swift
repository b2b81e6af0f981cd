import Metrics
import MetricsTestKit
import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// `wopi_db_pool_wait_seconds{database="postgresql"}` (Docs/operations.md): every database operation records its
/// wait for a pooled connection when it gets one, so a wait behind a busy pool is recorded once the pool frees up.
@Suite struct PoolWaitMetricTests {
    @Test func eachOperationRecordsItsWaitForAConnection() async throws {
        let metrics = TestMetrics()
        let configuration = try await PostgresServer.shared.value.makeDatabase(poolSize: 1)
        let pool = try await withMetricsFactory(metrics) {
            try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        }
        let waits = try metrics.expectTimer("wopi_db_pool_wait_seconds", [("database", "postgresql")])
        #expect(waits.values.count == 1, "opening the pool reached the database once")

        // One connection: a ping asked for while another operation holds it is leased only once that one ends.
        let held = try await HeldConnection.hold(pool)
        let waiter = Task { try await pool.ping() }
        #expect(waits.values.count == 2, "the holder's wait is recorded")
        try await held.release()
        try await waiter.value
        #expect(waits.values.count == 3, "the ping's wait is recorded once it got the connection")
        #expect(waits.values.allSatisfy { $0 >= 0 })
        await pool.shutdown()
    }
}
