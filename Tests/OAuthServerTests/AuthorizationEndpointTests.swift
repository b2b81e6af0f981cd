import Foundation
import Testing
import WOPIServer
import WOPITestSupport

@Suite("Authorization endpoint")
struct AuthorizationEndpointTests {
    @Test(
        "an unknown client or unregistered redirect URI gets an HTML error page, never a redirect",
        arguments: [
            [("client_id", "nobody"), ("redirect_uri", "https://localhost")],
            [("client_id", "office"), ("redirect_uri", "https://evil.example.com")],
            [("client_id", "office"), ("redirect_uri", "https://localhost/")],
            [("client_id", "native"), ("redirect_uri", "http://127.0.0.1:5000/other")],
            [("client_id", "native"), ("redirect_uri", "http://localhost:5000/callback")],
            [("client_id", "native")],
            [("redirect_uri", "https://localhost")],
        ])
    func errorPage(_ query: [(String, String)]) async throws {
        try await expectErrorPage(query)
    }

    @Test(
        "a GET that repeats client_id or redirect_uri, or has a malformed query, gets an error page (RFC 6749 §3.1)",
        arguments: [
            [("client_id", "office"), ("client_id", "native"), ("redirect_uri", "https://localhost")],
            [("client_id", "office"), ("redirect_uri", "https://localhost"), ("redirect_uri", "https://localhost")],
        ])
    func repeatedParameterOnGet(_ query: [(String, String)]) async throws {
        try await expectErrorPage(query)
    }

    @Test("a GET whose query has a malformed escape gets an error page, not a page for the pairs that decoded")
    func malformedQueryOnGet() async throws {
        try await TestAuthServer.run { oauth in
            let reply = try await oauth.get(
                oauth.authorizeURL + "?response_type=code&client_id=office&redirect_uri=https%3A%2F%2Flocalhost&x=%ZZ")
            #expect(reply.status == 400)
            #expect(reply.text.contains("id=\"error\""))
            #expect(!reply.text.contains("<form"))
        }
    }

    private func expectErrorPage(_ query: [(String, String)]) async throws {
        try await TestAuthServer.run { oauth in
            let reply = try await oauth.openSignIn(query.map { ($0.0, $0.1) } + [("response_type", "code")])
            #expect(reply.status == 400)
            #expect(reply.header("location") == nil)
            #expect(reply.header("content-type")?.hasPrefix("text/html") == true)
            #expect(reply.text.contains("id=\"error\""))
            #expect(!reply.text.contains("<form"))
        }
    }

    @Test(
        "PKCE rules are enforced with an error redirect once the redirect URI is valid",
        arguments: [
            ("native", nil as String?, "no challenge from a public client"),
            ("native", "plain", "plain method"),
            ("office", "plain", "plain method from a confidential client"),
            ("native", "", "challenge without method"),
        ])
    func pkceRefused(client: String, method: String?, _ reason: String) async throws {
        try await TestAuthServer.run { oauth in
            let redirect = client == "office" ? "https://localhost" : "http://127.0.0.1:4000/callback"
            let pkce: PKCEPair? = method == nil ? nil : PKCEPair()
            let reply = try await oauth.openSignIn(
                TestAuthServer.query(
                    client: client, redirectURI: redirect, state: "s9", pkce: pkce,
                    method: method.flatMap { $0.isEmpty ? nil : $0 }))
            #expect(reply.status == 302, "\(reason)")
            let query = reply.locationQuery
            #expect(reply.header("location")?.hasPrefix(redirect + "?") == true)
            #expect(query["error"] == "invalid_request", "\(reason)")
            #expect(query["state"] == "s9")
            #expect(query["iss"] == oauth.baseURL)
            #expect(query["code"] == nil)
        }
    }

    @Test("response_type other than code is refused by redirect")
    func responseType() async throws {
        try await TestAuthServer.run { oauth in
            let reply = try await oauth.openSignIn([
                ("client_id", "office"), ("redirect_uri", "https://localhost"), ("response_type", "token"),
            ])
            #expect(reply.status == 302)
            #expect(reply.locationQuery["error"] == "unsupported_response_type")
        }
    }

    @Test("the sign-in page is mobile-friendly, script-free, links the privacy statement and sends security headers")
    func pageContent() async throws {
        try await TestAuthServer.run { oauth in
            let page = try await oauth.openSignIn(
                TestAuthServer.query(client: "office", redirectURI: "https://localhost"))
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width"))
            #expect(html.contains("href=\"https://example.com/privacy\""))
            #expect(!html.lowercased().contains("<script"))
            #expect(!html.contains(TestAuthServer.officeSecret))
            #expect(html.contains("Microsoft Office"))
            let csp = try #require(page.header("content-security-policy"))
            #expect(csp.contains("default-src 'none'"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(csp.contains("form-action 'self' https://localhost"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(page.header("cache-control") == "no-store")
            let cookie = try #require(page.header("set-cookie"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(cookie.contains("HttpOnly"))
        }
    }

    @Test("a wrong password or unknown user re-shows the form with the same message and no code")
    func wrongPassword() async throws {
        try await TestAuthServer.run { oauth in
            let page = try await oauth.openSignIn(
                TestAuthServer.query(client: "office", redirectURI: "https://localhost"))
            let wrong = try await oauth.submit(page, password: "nope")
            let unknown = try await oauth.submit(page, username: "mallory")
            for reply in [wrong, unknown] {
                #expect(reply.status == 200)
                #expect(reply.header("location") == nil)
                #expect(reply.text.contains("The user name or password is incorrect."))
                #expect(reply.text.contains("<form"))
            }
            // The re-shown form works.
            let retry = try await oauth.submit(wrong)
            #expect(retry.status == 302)
            #expect(retry.locationQuery["code"] != nil)
        }
    }

    @Test("a missing, tampered, or foreign-browser anti-forgery token is refused without a code")
    func csrf() async throws {
        try await TestAuthServer.run { oauth in
            let page = try await oauth.openSignIn(
                TestAuthServer.query(client: "native", redirectURI: "http://127.0.0.1:9/callback", pkce: PKCEPair()))
            let attacker = PKCEPair()
            let attempts = [
                try await oauth.submit(page, alter: { $0.filter { $0.name != "form_token" } }),
                try await oauth.submit(
                    page, alter: { $0.map { $0.name == "form_token" ? ($0.name, $0.value + "A") : $0 } }),
                try await oauth.submit(
                    page, alter: { $0.map { $0.name == "code_challenge" ? ($0.name, attacker.challenge) : $0 } }),
                try await oauth.submit(page, sendCookie: false),
                try await oauth.submit(
                    page, cookie: "wopikit_oauth_browser=" + String(repeating: "b", count: 43)),
            ]
            for reply in attempts {
                #expect(reply.status == 400)
                #expect(reply.header("location") == nil)
                #expect(reply.text.contains("expired or was not opened from this site"))
            }
            // An expired form is refused too.
            oauth.clock.advance(by: 16 * 60)
            let late = try await oauth.submit(page)
            #expect(late.status == 400)
            #expect(late.header("location") == nil)
        }
    }
}
