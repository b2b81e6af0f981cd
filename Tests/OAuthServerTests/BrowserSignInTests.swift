import Foundation
import Testing
import WOPIServer
import WOPITestSupport

@Suite("Sign-in page in headless Chromium")
struct BrowserSignInTests {
    @Test(
        "a wrong password shows the error; the right one lands on the loopback redirect with a code; no console errors")
    func signInInBrowser() async throws {
        try await TestAuthServer.run(overSocket: true) { oauth in
            let pkce = PKCEPair()
            let query = TestAuthServer.query(
                client: "native", redirectURI: oauth.loopbackRedirect, state: "browser-state", pkce: pkce)
            let code = try await ChromeDriver.with { browser in
                try await browser.navigate(to: oauth.authorizeURL + "?" + Web.formEncode(query))
                #expect(try await browser.pageSource().contains("Sign in to WOPIKit"))

                try await browser.type("ana", into: "#username")
                try await browser.type("not the password", into: "#password")
                try await browser.click("#submit")
                let errorPage = try await browser.pageSource()
                #expect(errorPage.contains("The user name or password is incorrect."))
                #expect(try await browser.currentURL().hasPrefix(oauth.authorizeURL))
                var console = try await browser.consoleLog()

                try await browser.type(TestAuthServer.password, into: "#password")
                try await browser.click("#submit")
                let landed = try await browser.waitForURL { $0.hasPrefix(oauth.loopbackRedirect + "?") }
                #expect(try await browser.pageSource().contains("signed in"))
                console += try await browser.consoleLog()
                let errors = console.filter { $0.level == "SEVERE" }
                #expect(errors.isEmpty, "console errors: \(errors)")

                let items = URLComponents(string: landed)?.queryItems ?? []
                #expect(items.first { $0.name == "state" }?.value == "browser-state")
                #expect(items.first { $0.name == "iss" }?.value == oauth.baseURL)
                return try #require(items.first { $0.name == "code" }?.value)
            }
            let token = try await oauth.postForm(
                oauth.tokenURL,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", oauth.loopbackRedirect),
                    ("client_id", "native"), ("code_verifier", pkce.verifier),
                ])
            #expect(token.status == 200, "\(token.text)")
            #expect(try await oauth.isValid(try token.json()["access_token"]))
        }
    }
}
