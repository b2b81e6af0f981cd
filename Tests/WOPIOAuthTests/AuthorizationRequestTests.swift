import Foundation
import Testing

@testable import WOPIOAuth

@Suite("Authorization request")
struct AuthorizationRequestTests {
    let configuration = OAuthClientConfiguration(
        clientID: "client id/1", authorizationEndpoint: URL(string: "https://contoso.com/oauth2/authorize?tenant=a")!,
        tokenEndpoint: URL(string: "https://contoso.com/oauth2/token")!, scopes: ["wopi", "offline_access"],
        additionalAuthorizationParameters: [.init("rs", "en-US"), .init("state", "evil"), .init("build", "1.2")])

    @Test func buildsTheAuthorizeURL() throws {
        let redirect = URL(string: "http://127.0.0.1:5000/callback")!
        let request = AuthorizationRequest(configuration: configuration, redirectURI: redirect)
        let url = request.url
        #expect(url.absoluteString.hasPrefix("https://contoso.com/oauth2/authorize?tenant=a&"))
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let values = Dictionary(grouping: query, by: \.name).mapValues { $0.map { $0.value ?? "" } }
        #expect(values["tenant"] == ["a"])
        #expect(values["client_id"] == ["client id/1"])
        #expect(values["redirect_uri"] == ["http://127.0.0.1:5000/callback"])
        #expect(values["response_type"] == ["code"])
        #expect(values["scope"] == ["wopi offline_access"])
        #expect(values["state"] == [request.state])
        #expect(values["code_challenge"] == [request.pkce.challenge])
        #expect(values["code_challenge_method"] == ["S256"])
        #expect(values["rs"] == ["en-US"])
        #expect(values["build"] == ["1.2"])
        // An extra parameter never overrides a protocol one.
        #expect(!url.absoluteString.contains("evil"))
        #expect(!url.absoluteString.contains(request.pkce.verifier))
    }

    @Test func stateHasAtLeast128BitsAndIsFresh() {
        let states = (0..<50).map { _ in AuthorizationRequest.makeState() }
        #expect(states.allSatisfy { $0.count >= 22 })
        #expect(Set(states).count == states.count)
        let a = AuthorizationRequest(configuration: configuration, redirectURI: URL(string: "http://127.0.0.1:1/")!)
        let b = AuthorizationRequest(configuration: configuration, redirectURI: URL(string: "http://127.0.0.1:1/")!)
        #expect(a.state != b.state)
        #expect(a.pkce != b.pkce)
    }

    @Test func leavesScopeOutWhenEmpty() {
        var configuration = configuration
        configuration.scopes = []
        let request = AuthorizationRequest(configuration: configuration, redirectURI: URL(string: "app:/cb")!)
        #expect(!request.url.absoluteString.contains("scope="))
    }
}
