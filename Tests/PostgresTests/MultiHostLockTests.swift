import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIClusterTestSupport
import WOPIModels
import WOPITestSupport

/// WOPI locks taken through three hosts on one PostgreSQL database: the lock store's one-statement
/// compare-and-swap decides every race, whichever host a request reaches.
@Suite("PostgreSQL: locks across hosts")
struct MultiHostLockTests {
    static let clients = 50

    @Test("50 clients race Lock, then UnlockAndRelock, on one file through 3 hosts: exactly one wins each race")
    func lockRaces() async throws {
        let cluster = try await HostCluster.start(3)
        do {
            try await cluster.importFile("race.txt", content: Array("race".utf8))
            let (path, token) = try await cluster.token(for: "race.txt")

            let locks = try await Self.race(cluster, path: path, token: token) { index in
                [("X-WOPI-Override", "LOCK"), ("X-WOPI-Lock", "lock-\(index)")]
            }
            let lockWinners = locks.filter { $0.value.status == 200 }
            try #require(lockWinners.count == 1, "Lock winners: \(lockWinners.keys.sorted())")
            let winner = "lock-\(lockWinners.first!.key)"
            for (_, reply) in locks where reply.status != 200 {
                #expect(reply.status == 409)
                #expect(reply.header("X-WOPI-Lock") == winner)
            }

            let relocks = try await Self.race(cluster, path: path, token: token) { index in
                [("X-WOPI-Override", "LOCK"), ("X-WOPI-OldLock", winner), ("X-WOPI-Lock", "relock-\(index)")]
            }
            let relockWinners = relocks.filter { $0.value.status == 200 }
            try #require(relockWinners.count == 1, "UnlockAndRelock winners: \(relockWinners.keys.sorted())")
            let newLock = "relock-\(relockWinners.first!.key)"
            #expect(relocks.values.filter { $0.status == 409 }.count == Self.clients - 1)

            // Every host now reports the new lock.
            for host in 0..<3 {
                let reply = try await TestHTTP.send(
                    .POST, cluster.url(path, token: token, host: host), headers: [("X-WOPI-Override", "GET_LOCK")])
                #expect(reply.status == 200)
                #expect(reply.header("X-WOPI-Lock") == newLock)
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// Sends one request per client at once, client `i` to host `i mod 3`; returns each client's reply.
    static func race(
        _ cluster: HostCluster, path: String, token: String, headers: @escaping @Sendable (Int) -> [(String, String)]
    ) async throws -> [Int: TestHTTP.Reply] {
        try await withThrowingTaskGroup(of: (Int, TestHTTP.Reply).self) { group in
            for index in 0..<clients {
                group.addTask {
                    (
                        index,
                        try await TestHTTP.send(
                            .POST, cluster.url(path, token: token, host: index), headers: headers(index))
                    )
                }
            }
            var replies: [Int: TestHTTP.Reply] = [:]
            for try await (index, reply) in group { replies[index] = reply }
            return replies
        }
    }
}
