import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPIStorage
import WOPITestSupport

/// `PostgresPool.Configuration.leaseTimeout`: an operation that cannot get a connection in time fails with
/// `unavailable` (a host answers 503) instead of waiting behind a busy pool, and the pool serves again afterwards.
@Suite struct PoolLeaseTimeoutTests {
    @Test(.timeLimit(.minutes(1))) func aWaitForABusyPoolEndsAtTheLeaseTimeout() async throws {
        var configuration = try await PostgresServer.shared.value.makeDatabase(poolSize: 1)
        configuration.leaseTimeout = .milliseconds(300)
        // `open` waits for the database within the lease timeout too, and opening a connection can take longer than
        // 300 ms while the other PostgreSQL suites load the server: a pool that could not open in time is opened again.
        let opened = try await Polling.first {
            try? await PostgresPool.open(configuration, logger: PostgresServer.logger)
        }
        let pool = try #require(opened, "the pool opens within the test's patience")

        // The one connection is held until the waiter has given up.
        let held = try await HeldConnection.hold(pool)
        await #expect {
            try await pool.ping()
        } throws: { error in
            (error as? StorageError)?.code == .unavailable
        }
        try await held.release()
        try await pool.ping()
        await pool.shutdown()
    }
}
