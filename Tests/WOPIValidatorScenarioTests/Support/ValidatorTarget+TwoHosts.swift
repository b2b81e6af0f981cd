import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresServerStores
import PostgresStorage
import Synchronization
import Testing
import WOPIClusterTestSupport
import WOPIModels
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport

extension ValidatorTarget {
    /// Two co-authoring hosts on one PostgreSQL database behind one socket that hands the requests to them in turn,
    /// as a round-robin balancer hands them to two `serve` processes. Each host has its own connection pool, storage,
    /// lock store and content-stream store, so all they share is the database (and the signing key, as a cluster
    /// shares its keys). Both run on one ``TestClock``, which the validator's `Delay`s advance: the delayed
    /// `CoauthLockExpiration` group, which the balancer test over `serve` processes on the wall clock cannot run,
    /// runs here across hosts. The test file is `WopiValidator/test.wopitest` of user `demo`.
    static func withTwoPostgresCoauthHosts<T: Sendable>(
        _ body: @Sendable (ValidatorTarget) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "coauth-validator-two-hosts")
        logger.logLevel = .warning
        let clock = TestClock()
        let key = SymmetricKey(size: .bits256)
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "demo", signInName: "demo", displayName: "Demo User", passwordHash: nil))
        let configuration = try await PostgresServer.shared.value.makeDatabase()
        var pools: [PostgresPool] = []
        var hosts: [WOPIHost] = []
        do {
            for _ in 0..<2 {
                let database = try await PostgresPool.open(configuration, logger: PostgresServer.logger)
                pools.append(database)
                var coauthoring = CoauthoringConfiguration(
                    endpoints: .fixed(coauthoringEndpoints), fileGeoLocationCode: "EU")
                coauthoring.contentStreams = try await PostgresContentStreamStore.open(database: database)
                coauthoring.uploadSessions = try await PostgresUploadSessionStore.open(database: database)
                var hostConfiguration = WOPIHostConfiguration()
                hostConfiguration.coauthoring = coauthoring
                hosts.append(
                    WOPIHost(
                        storage: try await PostgresStorage.open(database: database),
                        locks: try await PostgresLockStore.open(database: database, now: clock.dateSource),
                        users: users, tokens: AccessTokenSigner(key: key), configuration: hostConfiguration,
                        logger: logger, now: clock.dateSource))
            }
            let seeded = try await seedTestFile(on: hosts[0], clock: clock)
            let responders = hosts.map { host in
                let router = Router()
                WOPIRoutes.add(to: router, host: host)
                return router.buildResponder()
            }
            let balancer = TakingTurns(responders)
            let result = try await LoopbackServer.run(balancer, logger: logger) { baseURL in
                try await body(coauthoring(seeded, at: baseURL, clock: clock))
            }
            // Every case sends several requests, so each host answered about half of them.
            #expect(balancer.requestsAnswered > 2 * 92, "requests through the two hosts: \(balancer.requestsAnswered)")
            for pool in pools { await pool.shutdown() }
            return result
        } catch {
            for pool in pools { await pool.shutdown() }
            throw error
        }
    }
}

/// Hands each request to the next of its responders, in turn: a round-robin balancer without stickiness, in-process.
struct TakingTurns<Responder: HTTPResponder>: HTTPResponderBuilder, HTTPResponder {
    let responders: [Responder]
    private let turns = Turns()

    init(_ responders: [Responder]) { self.responders = responders }

    func buildResponder() -> Self { self }

    /// The requests handed on so far: responder `i` answered those whose turn number is `i` modulo their count.
    var requestsAnswered: Int { turns.count.withLock { $0 } }

    func respond(to request: Request, context: Responder.Context) async throws -> Response {
        try await responders[turns.next() % responders.count].respond(to: request, context: context)
    }

    /// A counter shared by every request.
    final class Turns: Sendable {
        let count = Mutex(0)
        func next() -> Int {
            count.withLock { value in
                defer { value &+= 1 }
                return value
            }
        }
    }
}
