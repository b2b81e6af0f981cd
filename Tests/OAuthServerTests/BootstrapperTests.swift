import Foundation
import Testing
import WOPIServer
import WOPITestSupport

@Suite("Bootstrapper with the authorization server")
struct BootstrapperTests {
    @Test(
        "401 with a Bearer challenge before sign-in; the Bootstrap JSON with the access token; 401 again once revoked or expired"
    )
    func endToEnd() async throws {
        try await TestAuthServer.run { oauth in
            let url = oauth.baseURL + "/wopibootstrapper"
            let anonymous = try await oauth.get(url)
            #expect(anonymous.status == 401)
            let challenge = try #require(anonymous.header("www-authenticate"))
            #expect(challenge.hasPrefix("Bearer "))
            #expect(challenge.contains("authorization_uri=\"\(oauth.authorizeURL)\""))
            #expect(challenge.contains("tokenIssuance_uri=\"\(oauth.tokenURL)\""))

            let tokens = try await oauth.officeTokens()
            let access = try #require(tokens["access_token"] as? String)
            let signedIn = try await oauth.get(url, headers: ["Authorization": "Bearer \(access)"])
            #expect(signedIn.status == 200)
            #expect(signedIn.header("content-type")?.hasPrefix("application/json") == true)
            let bootstrap = try #require(try signedIn.json()["Bootstrap"] as? [String: Any])
            #expect(bootstrap["UserId"] as? String == "ana")
            #expect(bootstrap["SignInName"] as? String == "ana@example.com")
            let colon = try await oauth.get(url, headers: ["Authorization": "Bearer: \(access)"])
            #expect(colon.status == 200)

            // Revoked: the challenge again.
            let revoked = try await oauth.postForm(
                oauth.revokeURL, [("token", access)],
                headers: ["Authorization": Web.basic("office", TestAuthServer.officeSecret)])
            #expect(revoked.status == 200)
            let afterRevoke = try await oauth.get(url, headers: ["Authorization": "Bearer \(access)"])
            #expect(afterRevoke.status == 401)
            #expect(afterRevoke.header("www-authenticate")?.hasPrefix("Bearer ") == true)

            // Expired: the challenge again.
            let fresh = try #require(try await oauth.officeTokens()["access_token"] as? String)
            #expect(try await oauth.get(url, headers: ["Authorization": "Bearer \(fresh)"]).status == 200)
            oauth.clock.advance(by: 3601)
            let expired = try await oauth.get(url, headers: ["Authorization": "Bearer \(fresh)"])
            #expect(expired.status == 401)
            #expect(expired.header("www-authenticate")?.hasPrefix("Bearer ") == true)
        }
    }
}
