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
        let pool = try await PostgresPool.open(configuration, logger: PostgresServer.logger)

        // The one connection is held until the waiter has given up.
        let held = await HeldConnection.hold(pool)
        await #expect {
            try await pool.ping()
        } throws: { error in
            (error as? StorageError)?.code == .unavailable
        }
        try await held.release()
        // Serving again may take a new connection, which can take longer than this short lease timeout while the
        // other PostgreSQL suites load the server: a ping that times out then is asked again.
        let served = try await Polling.until { (try? await pool.ping()) != nil }
        #expect(served, "the pool serves again once the connection is released")
        await pool.shutdown()
    }
}
