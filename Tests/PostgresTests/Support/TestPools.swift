import PostgresStorage
import Synchronization
import WOPIClusterTestSupport

/// The pools one test opened, as several hosts would, all closed at its end.
final class TestPools: Sendable {
    let configuration: PostgresPool.Configuration
    private let pools = Mutex<[PostgresPool]>([])

    /// Pools on a new empty database of the shared server.
    static func fresh(poolSize: Int = 4) async throws -> TestPools {
        TestPools(configuration: try await PostgresServer.shared.value.makeDatabase(poolSize: poolSize))
    }

    init(configuration: PostgresPool.Configuration) { self.configuration = configuration }

    /// A new pool on the database (a new "host").
    func open() async throws -> PostgresPool {
        let pool = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
        pools.withLock { $0.append(pool) }
        return pool
    }

    /// Closes every pool opened.
    func close() async {
        for pool in pools.withLock({ $0 }) { await pool.shutdown() }
    }
}
