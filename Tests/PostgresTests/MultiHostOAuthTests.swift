import Foundation
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// OAuth codes and refresh tokens redeemed at different hosts at the same moment, straight at the hosts' token
/// endpoints (no balancer): the database decides, as one host's memory would.
///
/// A redemption marks the code (or refresh token) used in one transaction and saves the new tokens after it, as on
/// one host; the loser sees a replay and revokes the family. Whatever the timing, no token of the family survives
/// the race: tokens saved before the revocation are deleted, and the store refuses the ones the winner saves after
/// it (`OAuthFamilyRevokedError`), in which case the winner is told `invalid_grant` ("used twice at the same
/// time") instead of getting tokens. Exactly one redemption wins the code either way.
@Suite("PostgreSQL: OAuth races across hosts")
struct MultiHostOAuthTests {
    @Test(
        "one authorization code redeemed at two hosts at once: exactly one redemption wins, and no token of the code outlives the replay, on any host"
    )
    func codeRace() async throws {
        let cluster = try await HostCluster.start(3)
        do {
            let office = try OfficeSignIn(dataFolder: cluster.folders[0].url)
            var rounds = (issued: 0, refused: 0)
            for round in 0..<5 {
                let code = try await office.code(at: cluster.bases[round % 3])
                async let atFirst = office.redeem(code, at: cluster.bases[(round + 1) % 3])
                async let atSecond = office.redeem(code, at: cluster.bases[(round + 2) % 3])
                let won = try Self.winner(of: try await [atFirst, atSecond], "round \(round)")
                if won.status == 200 {
                    rounds.issued += 1
                    // The loser's replay revoked the tokens the winner got, on every host, already.
                    let tokens = try OfficeSignIn.fields(won)
                    let access = try #require(tokens["access_token"])
                    for base in cluster.bases { #expect(try await office.bootstrapStatus(access, at: base) == 401) }
                    let refresh = try await office.refresh(try #require(tokens["refresh_token"]), at: cluster.bases[0])
                    #expect(refresh.status == 400)
                } else {
                    rounds.refused += 1
                    #expect(won.status == 400)
                    #expect(try OfficeSignIn.fields(won)["error"] == "invalid_grant")
                }
                // The code once more, at the third host: still a replay.
                let replay = try await office.redeem(code, at: cluster.bases[round % 3])
                #expect(replay.status == 400)
                #expect(try OfficeSignIn.fields(replay)["error"] == "invalid_grant")
            }
            print("code races: tokens issued then revoked in \(rounds.issued), refused at issue in \(rounds.refused)")
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
            let office = try OfficeSignIn(dataFolder: cluster.folders[0].url)
            let code = try await office.code(at: cluster.bases[0])
            let first = try OfficeSignIn.fields(try await office.redeem(code, at: cluster.bases[0]))
            let refresh = try #require(first["refresh_token"])
            let firstAccess = try #require(first["access_token"])
            #expect(try await office.bootstrapStatus(firstAccess, at: cluster.bases[1]) == 200)
            async let atSecond = office.refresh(refresh, at: cluster.bases[1])
            async let atThird = office.refresh(refresh, at: cluster.bases[2])
            let won = try Self.winner(of: try await [atSecond, atThird], "refresh")
            // The loser's reuse revoked the whole family, on every host: the first access token, and the rotated
            // tokens whether they were saved before the revocation (deleted) or after it (refused).
            for base in cluster.bases { #expect(try await office.bootstrapStatus(firstAccess, at: base) == 401) }
            if won.status == 200 {
                let rotated = try OfficeSignIn.fields(won)
                for base in cluster.bases {
                    #expect(try await office.bootstrapStatus(try #require(rotated["access_token"]), at: base) == 401)
                }
                let next = try await office.refresh(try #require(rotated["refresh_token"]), at: cluster.bases[0])
                #expect(next.status == 400)
                #expect(try OfficeSignIn.fields(next)["error"] == "invalid_grant")
            }
            let reuse = try await office.refresh(refresh, at: cluster.bases[0])
            #expect(reuse.status == 400)
            #expect(try OfficeSignIn.fields(reuse)["error"] == "invalid_grant")
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// The reply of the redemption that won a race of two: 200 with tokens, or `invalid_grant` "used twice at the
    /// same time" when the loser's revocation came before its tokens were saved. The loser's reply is checked to
    /// be the replay's `invalid_grant`.
    static func winner(of replies: [TestHTTP.Reply], _ race: String) throws -> TestHTTP.Reply {
        let described = replies.map { "\($0.status) \($0.text)" }
        let won = replies.filter { $0.status == 200 || $0.text.contains("at the same time") }
        try #require(won.count == 1, "\(race): exactly one redemption wins: \(described)")
        let loser = try #require(replies.first { $0.status != 200 && !$0.text.contains("at the same time") })
        #expect(loser.status == 400)
        #expect(try OfficeSignIn.fields(loser)["error"] == "invalid_grant")
        return won[0]
    }
}
