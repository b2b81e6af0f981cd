import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// PostgreSQL stopped and started again under two running hosts.
@Suite("PostgreSQL: the database restarted under load")
struct DatabaseRestartTests {
    @Test(
        "503 with X-WOPI-ServerError and Retry-After while it is down, recovery without a host restart, no acknowledged write lost"
    )
    func restart() async throws {
        let server = try await PostgresServer.start()
        let cluster = try await HostCluster.start(2, on: server)
        do {
            try await cluster.importFile("load.txt", content: Array("v0".utf8))
            let (path, token) = try await cluster.token(for: "load.txt")
            let lock = try await TestHTTP.send(
                .POST, cluster.url(path, token: token, host: 0),
                headers: [("X-WOPI-Override", "LOCK"), ("X-WOPI-Lock", "load")])
            try #require(lock.status == 200)

            func put(_ text: String, host: Int) async throws -> TestHTTP.Reply {
                try await TestHTTP.send(
                    .POST, cluster.url(path, token: token, host: host, suffix: "/contents"),
                    headers: [("X-WOPI-Override", "PUT"), ("X-WOPI-Lock", "load")], body: ByteBuffer(string: text))
            }

            // Load before: every write is acknowledged.
            var acknowledged = "v0"
            for round in 1...20 {
                let reply = try await put("v\(round)", host: round)
                try #require(reply.status == 200, "PutFile v\(round): \(reply.status) \(reply.text)")
                acknowledged = "v\(round)"
            }

            await server.stop()
            var attempted: [String] = []
            for round in 21...24 {
                let reply = try await put("v\(round)", host: round)
                attempted.append("v\(round)")
                #expect(reply.status == 503, "PutFile while the database is down: \(reply.status) \(reply.text)")
                #expect(reply.header("X-WOPI-ServerError")?.isEmpty == false)
                #expect(reply.header("Retry-After") != nil)
                let info = try await TestHTTP.send(.GET, cluster.url(path, token: token, host: round))
                #expect(info.status == 503)
            }

            try await server.resume()
            // The hosts reconnect by themselves: poll (bounded) until CheckFileInfo answers again on both.
            for host in 0..<2 {
                let deadline = ContinuousClock.now + .seconds(90)
                while try await TestHTTP.send(.GET, cluster.url(path, token: token, host: host)).status != 200 {
                    try #require(ContinuousClock.now < deadline, "host \(host) did not recover")
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            let content = try await TestHTTP.send(.GET, cluster.url(path, token: token, host: 1, suffix: "/contents"))
            #expect(content.status == 200)
            #expect(
                ([acknowledged] + attempted).contains(content.text), "after the restart the file holds \(content.text)")
            #expect(content.text == acknowledged, "a write answered 503 must not have been applied")
            for round in 25...30 {
                let reply = try await put("v\(round)", host: round)
                #expect(reply.status == 200, "PutFile after recovery: \(reply.status) \(reply.text)")
            }
            let last = try await TestHTTP.send(.GET, cluster.url(path, token: token, host: 0, suffix: "/contents"))
            #expect(last.text == "v30")
        } catch {
            await cluster.stop()
            await server.stop()
            throw error
        }
        await cluster.stop()
        await server.stop()
    }
}
