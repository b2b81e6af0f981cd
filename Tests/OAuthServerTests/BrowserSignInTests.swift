import Foundation
import Testing
import WOPIServer
import WOPITestSupport

@Suite("Sign-in page in headless Chromium")
struct BrowserSignInTests {
    @Test(
        "a wrong password shows the error; the right one lands on the loopback redirect with a code; no console errors")
    func signInInBrowser() async throws {
        try await LiveAuthServer.run { live in
            let pkce = PKCEPair()
            let query = LiveAuthServer.query(
                client: "native", redirectURI: live.loopbackRedirect, state: "browser-state", pkce: pkce)
            let code = try await ChromeDriver.with { browser in
                try await browser.navigate(to: live.authorizeURL + "?" + Web.formEncode(query))
                #expect(try await browser.pageSource().contains("Sign in to WOPIKit"))

                try await browser.type("ana", into: "#username")
                try await browser.type("not the password", into: "#password")
                try await browser.click("#submit")
                let errorPage = try await browser.pageSource()
                #expect(errorPage.contains("The user name or password is incorrect."))
                #expect(try await browser.currentURL().hasPrefix(live.authorizeURL))
                var console = try await browser.consoleLog()

                try await browser.type(LiveAuthServer.password, into: "#password")
                try await browser.click("#submit")
                let landed = try await browser.waitForURL { $0.hasPrefix(live.loopbackRedirect + "?") }
                #expect(try await browser.pageSource().contains("signed in"))
                console += try await browser.consoleLog()
                let errors = console.filter { $0.level == "SEVERE" }
                #expect(errors.isEmpty, "console errors: \(errors)")

                let items = URLComponents(string: landed)?.queryItems ?? []
                #expect(items.first { $0.name == "state" }?.value == "browser-state")
                #expect(items.first { $0.name == "iss" }?.value == live.baseURL)
                return try #require(items.first { $0.name == "code" }?.value)
            }
            let token = try await Web.postForm(
                live.tokenURL,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", live.loopbackRedirect),
                    ("client_id", "native"), ("code_verifier", pkce.verifier),
                ])
            #expect(token.status == 200, "\(token.text)")
            #expect(try await live.isValid(try token.json()["access_token"]))
        }
    }
}
