import Foundation
import NIOHTTP1
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// `GET /readyz` follows the database: unready within 2 s of PostgreSQL stopping, ready again once it is back, while
/// `GET /healthz` (the process answers) stays 200 throughout (Docs/operations.md).
@Suite("PostgreSQL: readiness follows the database")
struct ReadinessTests {
    @Test("/readyz is 503 within 2 s of the database stopping and 200 after it restarts; /healthz stays 200")
    func readinessFollowsTheDatabase() async throws {
        let server = try await PostgresServer.start()
        let cluster = try await HostCluster.start(1, on: server)
        do {
            let base = cluster.bases[0]
            func status(_ path: String) async throws -> Int { try await TestHTTP.send(.GET, base + path).status }
            #expect(try await status("/readyz") == 200)
            #expect(try await status("/healthz") == 200)

            await server.stop()
            let stopped = ContinuousClock.now
            let unready = try await Polling.until(within: .seconds(2)) { try await status("/readyz") == 503 }
            #expect(unready, "/readyz still answered 200 \(ContinuousClock.now - stopped) after the database stopped")
            #expect(try await status("/healthz") == 200, "the process itself is alive")
            let refusal = try await TestHTTP.send(.GET, base + "/readyz")
            #expect(refusal.text == "not ready", "the answer gives nothing away")

            try await server.resume()
            #expect(try await Polling.until { try await status("/readyz") == 200 }, "/readyz did not recover")
        } catch {
            await cluster.stop()
            await server.stop()
            throw error
        }
        await cluster.stop()
        await server.stop()
    }
}
