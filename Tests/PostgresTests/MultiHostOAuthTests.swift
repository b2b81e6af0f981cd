import Foundation
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// OAuth codes and refresh tokens redeemed at different hosts at the same moment, straight at the hosts' token
/// endpoints (no balancer): the database decides, as one host's memory would.
///
/// A redemption marks the code (or refresh token) used in one transaction and saves the new tokens after it, as on
/// one host; a replay revokes the family's tokens saved so far. So the loser of a race at the same moment may revoke
/// before the winner has saved its tokens: each test then replays once more, after the race, at a third host, which
/// revokes the family whatever the timing.
@Suite("PostgreSQL: OAuth races across hosts")
struct MultiHostOAuthTests {
    @Test(
        "one authorization code redeemed at two hosts at once: exactly one gets tokens; a replay revokes them everywhere"
    )
    func codeRace() async throws {
        let cluster = try await HostCluster.start(3)
        do {
            let office = try OfficeSignIn(cluster)
            for round in 0..<5 {
                let code = try await office.code(at: cluster.bases[round % 3])
                async let atFirst = office.redeem(code, at: cluster.bases[(round + 1) % 3])
                async let atSecond = office.redeem(code, at: cluster.bases[(round + 2) % 3])
                let replies = try await [atFirst, atSecond]
                let winners = replies.filter { $0.status == 200 }
                try #require(winners.count == 1, "round \(round): \(replies.map { "\($0.status) \($0.text)" })")
                let loser = try #require(replies.first { $0.status != 200 })
                #expect(loser.status == 400)
                #expect(try OfficeSignIn.fields(loser)["error"] == "invalid_grant")
                let tokens = try OfficeSignIn.fields(winners[0])
                let access = try #require(tokens["access_token"])
                // The code once more, at the third host: a replay, which revokes what the code issued everywhere.
                let replay = try await office.redeem(code, at: cluster.bases[round % 3])
                #expect(replay.status == 400)
                #expect(try OfficeSignIn.fields(replay)["error"] == "invalid_grant")
                for base in cluster.bases { #expect(try await office.bootstrapStatus(access, at: base) == 401) }
                let refresh = try await office.refresh(try #require(tokens["refresh_token"]), at: cluster.bases[0])
                #expect(refresh.status == 400)
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    @Test("one refresh token used at two hosts at once: one rotation wins, the reuse revokes the family everywhere")
    func refreshReuse() async throws {
        let cluster = try await HostCluster.start(3)
        do {
            let office = try OfficeSignIn(cluster)
            let code = try await office.code(at: cluster.bases[0])
            let first = try OfficeSignIn.fields(try await office.redeem(code, at: cluster.bases[0]))
            let refresh = try #require(first["refresh_token"])
            let firstAccess = try #require(first["access_token"])
            #expect(try await office.bootstrapStatus(firstAccess, at: cluster.bases[1]) == 200)
            async let atSecond = office.refresh(refresh, at: cluster.bases[1])
            async let atThird = office.refresh(refresh, at: cluster.bases[2])
            let replies = try await [atSecond, atThird]
            let winners = replies.filter { $0.status == 200 }
            try #require(winners.count == 1, "\(replies.map { "\($0.status) \($0.text)" })")
            let loser = try #require(replies.first { $0.status != 200 })
            #expect(loser.status == 400)
            #expect(try OfficeSignIn.fields(loser)["error"] == "invalid_grant")
            // The loser's reuse revoked the family as it stood: the first access token is refused by every host.
            for base in cluster.bases { #expect(try await office.bootstrapStatus(firstAccess, at: base) == 401) }
            // One more reuse at the first host revokes the winner's rotated tokens too, on every host.
            let reuse = try await office.refresh(refresh, at: cluster.bases[0])
            #expect(reuse.status == 400)
            #expect(try OfficeSignIn.fields(reuse)["error"] == "invalid_grant")
            let rotated = try OfficeSignIn.fields(winners[0])
            for base in cluster.bases {
                #expect(try await office.bootstrapStatus(try #require(rotated["access_token"]), at: base) == 401)
            }
            let next = try await office.refresh(try #require(rotated["refresh_token"]), at: cluster.bases[0])
            #expect(next.status == 400)
            #expect(try OfficeSignIn.fields(next)["error"] == "invalid_grant")
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
