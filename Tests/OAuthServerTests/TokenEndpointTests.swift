import Foundation
import NIOHTTP1
import Testing
import WOPIAuthorizationServer
import WOPIServer
import WOPITestSupport

@Suite("Token endpoint")
struct TokenEndpointTests {
    @Test("a replayed code is refused and revokes every token it issued")
    func codeReplay() async throws {
        try await TestAuthServer.run { oauth in
            let code = try await oauth.officeCode()
            let first = try await oauth.redeemOfficeCode(code)
            #expect(first.status == 200)
            let tokens = try first.json()
            #expect(try await oauth.isValid(tokens["access_token"]))
            let second = try await oauth.redeemOfficeCode(code)
            #expect(second.status == 400)
            #expect(try second.json()["error"] as? String == "invalid_grant")
            #expect(try await !oauth.isValid(tokens["access_token"]))
            let refresh = try await oauth.refreshOffice(try #require(tokens["refresh_token"] as? String))
            #expect(refresh.status == 400)
            #expect(try refresh.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("a code expires after 10 minutes")
    func codeExpiry() async throws {
        try await TestAuthServer.run(configure: { $0.codeLifetime = 3600 }) { oauth in
            let code = try await oauth.officeCode()
            oauth.clock.advance(by: 10 * 60 + 1)
            let reply = try await oauth.redeemOfficeCode(code)
            #expect(reply.status == 400)
            #expect(try reply.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("the token request's redirect_uri must equal the authorization request's")
    func redirectMismatch() async throws {
        try await TestAuthServer.run { oauth in
            let reply = try await oauth.redeemOfficeCode(
                try await oauth.officeCode(), redirectURI: "https://localhost/x")
            #expect(reply.status == 400)
            #expect(try reply.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("a wrong or missing PKCE verifier is refused", arguments: ["wrong", "missing"])
    func wrongVerifier(_ kind: String) async throws {
        try await TestAuthServer.run { oauth in
            let pkce = PKCEPair()
            let redirect = "http://127.0.0.1:7000/callback"
            let result = try await oauth.authorize(
                TestAuthServer.query(client: "native", redirectURI: redirect, pkce: pkce))
            var form: [(name: String, value: String)] = [
                ("grant_type", "authorization_code"), ("code", try #require(result["code"])),
                ("redirect_uri", redirect), ("client_id", "native"),
            ]
            if kind == "wrong" { form.append(("code_verifier", PKCEPair().verifier)) }
            let reply = try await oauth.postForm(oauth.tokenURL, form)
            #expect(reply.status == 400)
            #expect(try reply.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("a verifier without a challenge in the authorization request is refused")
    func verifierWithoutChallenge() async throws {
        try await TestAuthServer.run { oauth in
            let code = try await oauth.officeCode()
            let reply = try await oauth.postForm(
                oauth.tokenURL,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://localhost"),
                    ("code_verifier", PKCEPair().verifier),
                ], headers: ["Authorization": Web.basic("office", TestAuthServer.officeSecret)])
            #expect(reply.status == 400)
            #expect(try reply.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("a wrong client secret is invalid_client: 401 with WWW-Authenticate via Basic, 400 via the body")
    func wrongSecret() async throws {
        try await TestAuthServer.run { oauth in
            let code = try await oauth.officeCode()
            let form: [(name: String, value: String)] = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://localhost"),
            ]
            let basic = try await oauth.postForm(
                oauth.tokenURL, form, headers: ["Authorization": Web.basic("office", "wrong-secret-0123456789")])
            #expect(basic.status == 401)
            #expect(basic.header("www-authenticate")?.hasPrefix("Basic") == true)
            #expect(try basic.json()["error"] as? String == "invalid_client")
            let post = try await oauth.postForm(
                oauth.tokenURL, form + [("client_id", "office"), ("client_secret", "wrong-secret-0123456789")])
            #expect(post.status == 400)
            #expect(try post.json()["error"] as? String == "invalid_client")
            let unknown = try await oauth.postForm(
                oauth.tokenURL, form + [("client_id", "ghost"), ("client_secret", "x")])
            #expect(try unknown.json()["error"] as? String == "invalid_client")
            let noSecret = try await oauth.postForm(oauth.tokenURL, form + [("client_id", "office")])
            #expect(try noSecret.json()["error"] as? String == "invalid_client")
            // The failed attempts did not burn the code.
            #expect(try await oauth.redeemOfficeCode(code).status == 200)
        }
    }

    @Test("a code issued to one client cannot be redeemed by another")
    func codeForOtherClient() async throws {
        try await TestAuthServer.run { oauth in
            let code = try await oauth.officeCode()
            let reply = try await oauth.postForm(
                oauth.tokenURL,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://localhost"),
                    ("client_id", "native"),
                ])
            #expect(reply.status == 400)
            #expect(try reply.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("malformed token requests get RFC 6749 §5.2 errors")
    func malformed() async throws {
        try await TestAuthServer.run { oauth in
            let auth = ["Authorization": Web.basic("office", TestAuthServer.officeSecret)]
            let grant = try await oauth.postForm(oauth.tokenURL, [("grant_type", "password")], headers: auth)
            #expect(try grant.json()["error"] as? String == "unsupported_grant_type")
            let missing = try await oauth.postForm(
                oauth.tokenURL, [("grant_type", "authorization_code")], headers: auth)
            #expect(try missing.json()["error"] as? String == "invalid_request")
            let json = try await oauth.send(
                .POST, oauth.tokenURL, headers: auth.merging(["Content-Type": "application/json"]) { a, _ in a },
                body: "{}")
            #expect(json.status == 400)
            #expect(try json.json()["error"] as? String == "invalid_request")
            let repeated = try await oauth.postForm(
                oauth.tokenURL, [("grant_type", "refresh_token"), ("grant_type", "refresh_token")], headers: auth)
            #expect(try repeated.json()["error"] as? String == "invalid_request")
            let get = try await oauth.get(oauth.tokenURL)
            #expect(get.status == 405)
        }
    }

    @Test("a replay whose revocation lands between the first redemption and its tokens: no token is issued")
    func replayDuringRedemption() async throws {
        let store = ReplayDuringRedemptionStore()
        try await TestAuthServer.run(store: store) { oauth in
            let reply = try await oauth.redeemOfficeCode(try await oauth.officeCode())
            #expect(reply.status == 400)
            #expect(try reply.json()["error"] as? String == "invalid_grant")
            #expect((try reply.json()["error_description"] as? String)?.contains("at the same time") == true)
            #expect(try reply.json()["access_token"] == nil)
        }
    }

    /// An in-memory store where another host's replay revokes the family right after a code's first redemption,
    /// before the server saves the tokens: the timing of two redemptions of one code at the same moment.
    actor ReplayDuringRedemptionStore: ForwardingOAuthStore {
        nonisolated let base = InMemoryOAuthStore()
        func redeemCode(_ hash: String) async throws -> OAuthRedemption<OAuthCodeRecord>? {
            let redemption = await base.redeemCode(hash)
            if case .first(let record) = redemption { await base.revokeFamily(record.familyID) }
            return redemption
        }
    }

    @Test("refresh rotates the refresh token; reusing an old one revokes the whole family")
    func refreshRotation() async throws {
        try await TestAuthServer.run { oauth in
            let first = try await oauth.officeTokens()
            let refresh1 = try #require(first["refresh_token"] as? String)
            let rotated = try await oauth.refreshOffice(refresh1)
            #expect(rotated.status == 200)
            #expect(rotated.header("cache-control") == "no-store")
            let second = try rotated.json()
            let refresh2 = try #require(second["refresh_token"] as? String)
            #expect(refresh2 != refresh1)
            #expect(try await oauth.isValid(second["access_token"]))
            // The old refresh token is used again: an attacker (or a bug) replays it.
            let reuse = try await oauth.refreshOffice(refresh1)
            #expect(reuse.status == 400)
            #expect(try reuse.json()["error"] as? String == "invalid_grant")
            #expect(try await !oauth.isValid(first["access_token"]))
            #expect(try await !oauth.isValid(second["access_token"]))
            #expect(try await oauth.refreshOffice(refresh2).status == 400)
        }
    }

    @Test("a refresh cannot widen the scope and is bound to its client")
    func refreshScopeAndClient() async throws {
        try await TestAuthServer.run { oauth in
            let tokens = try await oauth.officeTokens()
            let refresh = try #require(tokens["refresh_token"] as? String)
            let wider = try await oauth.postForm(
                oauth.tokenURL, [("grant_type", "refresh_token"), ("refresh_token", refresh), ("scope", "wopi admin")],
                headers: ["Authorization": Web.basic("office", TestAuthServer.officeSecret)])
            #expect(try wider.json()["error"] as? String == "invalid_scope")
            let other = try await oauth.postForm(
                oauth.tokenURL, [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
            #expect(try other.json()["error"] as? String == "invalid_grant")
            #expect(try await oauth.refreshOffice(refresh).status == 200)
        }
    }

    @Test("only the scopes the server defines are granted: others are left out, a request of none is refused")
    func scopesAreNarrowed() async throws {
        try await TestAuthServer.run { oauth in
            let office = { (scope: String) in
                TestAuthServer.query(client: "office", redirectURI: "https://localhost", extra: [("scope", scope)])
            }
            let refused = try await oauth.openSignIn(office("admin"))
            #expect(refused.status == 302)
            #expect(refused.locationQuery["error"] == "invalid_scope")
            let narrowed = try await oauth.authorize(office("wopi admin"))
            let tokens = try await oauth.redeemOfficeCode(try #require(narrowed["code"])).json()
            #expect(tokens["scope"] as? String == "wopi", "RFC 6749 §3.3: the response says the narrower scope")
        }
    }

    @Test("an access token expires after its lifetime; a refresh token after its own")
    func expiry() async throws {
        try await TestAuthServer.run { oauth in
            let tokens = try await oauth.officeTokens()
            oauth.clock.advance(by: 3601)
            #expect(try await !oauth.isValid(tokens["access_token"]))
            let refreshed = try await oauth.refreshOffice(try #require(tokens["refresh_token"] as? String))
            #expect(refreshed.status == 200)
            oauth.clock.advance(by: 31 * 24 * 3600)
            let late = try await oauth.refreshOffice(try #require(try refreshed.json()["refresh_token"] as? String))
            #expect(late.status == 400)
        }
    }

    @Test("revocation: access token alone, refresh token with its family, unknown tokens answer 200")
    func revocation() async throws {
        try await TestAuthServer.run { oauth in
            let auth = ["Authorization": Web.basic("office", TestAuthServer.officeSecret)]
            let a = try await oauth.officeTokens()
            let revokeAccess = try await oauth.postForm(
                oauth.revokeURL, [("token", try #require(a["access_token"] as? String))], headers: auth)
            #expect(revokeAccess.status == 200)
            #expect(try await !oauth.isValid(a["access_token"]))
            let refreshed = try await oauth.refreshOffice(try #require(a["refresh_token"] as? String))
            #expect(refreshed.status == 200)

            let b = try await oauth.officeTokens()
            let revokeRefresh = try await oauth.postForm(
                oauth.revokeURL,
                [("token", try #require(b["refresh_token"] as? String)), ("token_type_hint", "refresh_token")],
                headers: auth)
            #expect(revokeRefresh.status == 200)
            #expect(try await !oauth.isValid(b["access_token"]))
            #expect(try await oauth.refreshOffice(try #require(b["refresh_token"] as? String)).status == 400)

            let unknown = try await oauth.postForm(oauth.revokeURL, [("token", "no-such-token")], headers: auth)
            #expect(unknown.status == 200)
            // Another client cannot revoke Office's tokens.
            let c = try await oauth.officeTokens()
            let foreign = try await oauth.postForm(
                oauth.revokeURL, [("token", try #require(c["access_token"] as? String)), ("client_id", "native")])
            #expect(foreign.status == 200)
            #expect(try await oauth.isValid(c["access_token"]))
            let unauthenticated = try await oauth.postForm(
                oauth.revokeURL, [("token", "x")], headers: ["Authorization": Web.basic("office", "wrong")])
            #expect(unauthenticated.status == 401)
        }
    }

    @Test("the metadata document lists the endpoints and capabilities (RFC 8414)")
    func metadata() async throws {
        try await TestAuthServer.run { oauth in
            let reply = try await oauth.get(oauth.baseURL + "/.well-known/oauth-authorization-server")
            #expect(reply.status == 200)
            let json = try reply.json()
            #expect(json["issuer"] as? String == oauth.baseURL)
            #expect(json["authorization_endpoint"] as? String == oauth.authorizeURL)
            #expect(json["token_endpoint"] as? String == oauth.tokenURL)
            #expect(json["revocation_endpoint"] as? String == oauth.revokeURL)
            #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(json["response_types_supported"] as? [String] == ["code"])
            #expect(json["grant_types_supported"] as? [String] == ["authorization_code", "refresh_token"])
            #expect(
                json["token_endpoint_auth_methods_supported"] as? [String] == [
                    "client_secret_basic", "client_secret_post", "none",
                ])
            #expect(json["authorization_response_iss_parameter_supported"] as? Bool == true)
            #expect(json["op_policy_uri"] as? String == "https://example.com/privacy")
        }
    }
}
