import Foundation
import Testing
import WOPIAuthorizationServer
import WOPIServer
import WOPITestSupport

@Suite("Authorization code flow")
struct AuthorizationCodeFlowTests {
    @Test("a confidential client with client_secret_basic gets Bearer tokens for the signed-in user")
    func confidentialBasic() async throws {
        try await TestAuthServer.run { oauth in
            let result = try await oauth.authorize(
                TestAuthServer.query(client: "office", redirectURI: "https://localhost", state: "xyz"))
            #expect(result["state"] == "xyz")
            #expect(result["iss"] == oauth.baseURL)
            let code = try #require(result["code"])
            let reply = try await oauth.redeemOfficeCode(code)
            #expect(reply.status == 200)
            #expect(reply.header("cache-control") == "no-store")
            #expect(reply.header("pragma") == "no-cache")
            #expect(reply.header("content-type")?.hasPrefix("application/json") == true)
            let json = try reply.json()
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["expires_in"] as? Int == 3600)
            #expect(json["scope"] as? String == "wopi")
            let access = try #require(json["access_token"] as? String)
            #expect(json["refresh_token"] is String)
            #expect(try await oauth.server.userID(forAccessToken: access) == "ana")
            #expect(try await oauth.server.userID(forAccessToken: access + "x") == nil)
        }
    }

    @Test("a confidential client with client_secret_post gets tokens")
    func confidentialPost() async throws {
        try await TestAuthServer.run { oauth in
            let code = try await oauth.officeCode()
            let reply = try await oauth.postForm(
                oauth.tokenURL,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://localhost"),
                    ("client_id", "office"), ("client_secret", TestAuthServer.officeSecret),
                ])
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try await oauth.isValid(try reply.json()["access_token"]))
        }
    }

    @Test("a public client with PKCE S256 and a loopback redirect on any port gets tokens")
    func publicClientWithPKCE() async throws {
        try await TestAuthServer.run { oauth in
            let pkce = PKCEPair()
            for port in [51_234, 8_080] {
                let redirect = "http://127.0.0.1:\(port)/callback"
                let page = try await oauth.openSignIn(
                    TestAuthServer.query(client: "native", redirectURI: redirect, pkce: pkce))
                let reply = try await oauth.submit(page)
                #expect(reply.status == 302)
                #expect(reply.header("location")?.hasPrefix(redirect + "?code=") == true)
                let code = try #require(reply.locationQuery["code"])
                let token = try await oauth.postForm(
                    oauth.tokenURL,
                    [
                        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
                        ("client_id", "native"), ("code_verifier", pkce.verifier),
                    ])
                #expect(token.status == 200, "\(token.text)")
                #expect(try await oauth.isValid(try token.json()["access_token"]))
            }
        }
    }

    @Test("Office's extras and capitalised parameter names are accepted; tk and sc are added to the redirect")
    func officeExtras() async throws {
        try await TestAuthServer.run(configure: {
            $0.tokenEndpointOverride = "https://token.example.com/api/token?extra=stuff"
            $0.sessionContext = { user, client in "\(client.id):\(user.id)" }
        }) { oauth in
            let page = try await oauth.openSignIn([
                ("rs", "en-US"), ("Build", "16.0.1"), ("Platform", "iOS"), ("Client_ID", "office"),
                ("Redirect_URI", "https://localhost"), ("Response_Type", "code"),
            ])
            #expect(page.status == 200, "\(page.text)")
            #expect(page.hiddenFields.contains { $0 == ("platform", "iOS") })
            let reply = try await oauth.submit(page)
            #expect(reply.status == 302)
            let location = try #require(reply.header("location"))
            #expect(location.hasPrefix("https://localhost?code="))
            let query = reply.locationQuery
            #expect(query["tk"] == "https://token.example.com/api/token?extra=stuff")
            #expect(query["sc"] == "office:ana")
            #expect(query["state"] == nil)
            let code = try #require(query["code"])
            let token = try await oauth.postForm(
                oauth.tokenURL,
                [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://localhost")],
                headers: [
                    "Authorization": Web.basic("office", TestAuthServer.officeSecret),
                    "X-WOPI-SessionContext": "office:ana",
                ])
            #expect(token.status == 200)
        }
    }

    @Test("the sign-in name works as the user name")
    func signInName() async throws {
        try await TestAuthServer.run { oauth in
            let page = try await oauth.openSignIn(
                TestAuthServer.query(client: "office", redirectURI: "https://localhost"))
            let reply = try await oauth.submit(page, username: "ANA@example.com")
            #expect(reply.status == 302)
            #expect(reply.locationQuery["code"] != nil)
        }
    }
}
