import Foundation
import Testing

@testable import WOPIOAuth

@Suite("Authorization response and redirect URLs")
struct AuthorizationResponseTests {
    let expectation = AuthorizationResponse.Expectation(state: "s-123", issuer: "https://contoso.com")

    private func parse(_ text: String, _ expectation: AuthorizationResponse.Expectation? = nil) throws(OAuthError)
        -> AuthorizationResponse
    {
        try AuthorizationResponse.parse(redirectURL: URL(string: text)!, expecting: expectation ?? self.expectation)
    }

    private func code(of text: String, _ expectation: AuthorizationResponse.Expectation? = nil) -> OAuthError.Code? {
        do {
            _ = try parse(text, expectation)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func acceptsAValidRedirect() throws {
        let response = try parse("http://127.0.0.1:5/callback?code=abc&state=s-123&iss=https%3A%2F%2Fcontoso.com")
        #expect(response.code == "abc")
        #expect(response.issuer == "https://contoso.com")
        #expect(response.tokenEndpoint == nil)
        #expect(!"\(response)".contains("abc"))
    }

    @Test func rejectsMissingOrWrongState() {
        #expect(code(of: "http://127.0.0.1:5/callback?code=abc") == .stateMismatch)
        #expect(code(of: "http://127.0.0.1:5/callback?code=abc&state=s-124") == .stateMismatch)
        #expect(code(of: "http://127.0.0.1:5/callback?code=abc&state=s-12") == .stateMismatch)
        // Even an error response is not believed without the right state.
        #expect(code(of: "http://127.0.0.1:5/callback?error=access_denied&state=x") == .stateMismatch)
    }

    @Test func rejectsAnotherIssuer() {
        #expect(
            code(of: "http://127.0.0.1:5/callback?code=a&state=s-123&iss=https%3A%2F%2Fevil.com") == .issuerMismatch)
        // Without iss it is accepted unless the server advertised it.
        #expect(code(of: "http://127.0.0.1:5/callback?code=a&state=s-123") == nil)
        var strict = expectation
        strict.issuerRequired = true
        #expect(code(of: "http://127.0.0.1:5/callback?code=a&state=s-123", strict) == .issuerMismatch)
        // With no expected issuer, any iss passes.
        let open = AuthorizationResponse.Expectation(state: "s-123")
        #expect(code(of: "http://127.0.0.1:5/callback?code=a&state=s-123&iss=x", open) == nil)
    }

    @Test(arguments: [
        ("access_denied", OAuthError.Code.accessDenied), ("invalid_scope", .invalidScope),
        ("server_error", .serverError), ("temporarily_unavailable", .temporarilyUnavailable),
        ("invalid_request", .invalidRequest), ("unauthorized_client", .unauthorizedClient),
        ("unsupported_response_type", .unsupportedResponseType), ("something_new", .unrecognizedServerError),
    ])
    func mapsErrorResponses(_ wire: String, _ expected: OAuthError.Code) throws {
        do {
            _ = try parse("http://127.0.0.1:5/cb?error=\(wire)&error_description=Nope+then&state=s-123")
            Issue.record("accepted an error response")
        } catch {
            #expect(error.code == expected)
            #expect(error.serverErrorCode == wire)
            #expect(error.serverDescription == "Nope then")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func rejectsMissingCodeAndRepeatedParameters() {
        #expect(code(of: "http://127.0.0.1:5/cb?state=s-123") == .invalidResponse)
        #expect(code(of: "http://127.0.0.1:5/cb?code=a&code=b&state=s-123") == .invalidResponse)
        #expect(code(of: "http://127.0.0.1:5/cb?code=a&state=s-123&state=s-123") == .invalidResponse)
        #expect(code(of: "http://127.0.0.1:5/cb?code=a&state=s-123&tk=ftp%3A%2F%2Fx") == .invalidResponse)
    }

    @Test func returnsOfficeExtras() throws {
        let response = try parse(
            "https://localhost/?code=abcdefg&state=s-123&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff"
                + "&sc=hello%3AWorld")
        #expect(response.tokenEndpoint?.absoluteString == "https://contoso.com/api/token/?extra=stuff")
        #expect(response.sessionContext == "hello:World")
    }

    @Test func parsesCustomSchemeAndOfficeAppToAppForms() throws {
        let custom = try RedirectURL(string: "com.contoso.app:/oauth2redirect?code=c1&state=s#frag")
        #expect(custom["code"] == "c1")
        #expect(custom["state"] == "s")
        #expect(custom.matches(URL(string: "com.contoso.app:/oauth2redirect")!))
        #expect(!custom.matches(URL(string: "com.contoso.app:/other")!))
        #expect(!custom.matches(URL(string: "com.evil.app:/oauth2redirect")!))

        let office = try RedirectURL(
            string: "ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Ft&sc=xyz&action=76d1")
        #expect(office["code"] == "abcdefg")
        #expect(office["tk"] == "https://contoso.com/t")
        #expect(office["action"] == "76d1")
        #expect(office.matches(URL(string: "ms-word-tp:")!))

        let claimed = try RedirectURL(string: "https://App.Contoso.com/cb?code=z")
        #expect(claimed.matches(URL(string: "https://app.contoso.com/cb")!))
        #expect(!claimed.matches(URL(string: "https://app.contoso.com:8443/cb")!))
        #expect(!"\(claimed)".contains("code=z"))

        #expect(throws: OAuthError.self) { try RedirectURL(string: "not a url") }
    }
}
