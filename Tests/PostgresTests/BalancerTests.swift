import Foundation
import NIOHTTP1
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// The balancer the other cluster tests go through: nginx from Debian, configured from
/// `scripts/cluster-nginx.conf` as `scripts/cluster.sh` runs it, in front of 3 hosts on one database.
@Suite("PostgreSQL: nginx in front of 3 hosts")
struct BalancerTests {
    @Test("requests through the front are spread round-robin over all 3 hosts, and URLs point at the front")
    func spreadOverThreeHosts() async throws {
        let cluster = try await HostCluster.startBehindBalancer(3)
        do {
            let front = try #require(cluster.front)
            try await cluster.importFile("spread.txt", content: Array("spread".utf8))
            let (path, token) = try await cluster.token(for: "spread.txt")
            let requests = 30  // and 3 bootstrapper challenges
            for _ in 0..<requests {
                let reply = try await TestHTTP.send(.GET, "\(front.url)\(path)?access_token=\(token)")
                #expect(reply.status == 200, "\(reply.status) \(reply.text)")
            }
            // The bootstrapper's challenge names the front's OAuth endpoints, whichever host answers it.
            for _ in 0..<3 {
                let challenge = try await TestHTTP.send(.GET, "\(front.url)/wopibootstrapper")
                #expect(challenge.status == 401)
                let header = challenge.header("WWW-Authenticate") ?? ""
                #expect(header.contains("authorization_uri=\"\(front.url)/oauth2/authorize\""), "\(header)")
            }
            let counts = await front.requestsPerHost(atLeast: requests + 3)
            let addresses = cluster.bases.map { $0.replacingOccurrences(of: "http://", with: "") }
            #expect(Set(counts.keys) == Set(addresses), "\(counts)")
            for address in addresses {
                #expect(
                    counts[address] == (requests + 3) / 3,
                    "round-robin over 3 hosts: \(counts); nginx's error log: \(front.errorLog())")
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
