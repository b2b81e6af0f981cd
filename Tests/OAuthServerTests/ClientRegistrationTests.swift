import Foundation
import Testing
import WOPIAuthorizationServer
import WOPIServer

@Suite("Client registration")
struct ClientRegistrationTests {
    @Test(
        "allowed redirect URIs",
        arguments: [
            "https://localhost", "https://wopi.example.com/oauth/done", "http://127.0.0.1/callback",
            "http://127.0.0.1:8080/cb", "http://[::1]/callback", "com.example.app:/oauth", "com.example.app:/",
        ])
    func allowed(_ uri: String) throws {
        try OAuthClient.validateRedirectURI(uri)
    }

    @Test(
        "refused redirect URIs",
        arguments: [
            "myapp:/callback", "http://localhost/callback", "http://example.com/cb", "https://localhost#frag",
            "/relative", "", "https:///nohost", ".app:/x", "com.example.app:/cb#x", "http://127.0.0.1 /cb",
        ])
    func refused(_ uri: String) {
        #expect(throws: OAuthRegistrationError.self) { try OAuthClient.validateRedirectURI(uri) }
    }

    @Test("a client needs a valid ID, a redirect URI, and a long enough secret")
    func clientRules() throws {
        #expect(throws: OAuthRegistrationError.self) {
            try OAuthClient(id: "bad id", kind: .public, redirectURIs: ["https://localhost"])
        }
        #expect(throws: OAuthRegistrationError.self) { try OAuthClient(id: "a", kind: .public, redirectURIs: []) }
        #expect(throws: OAuthRegistrationError.self) {
            try OAuthClient(id: "a", kind: .public, redirectURIs: ["myapp:/cb"])
        }
        #expect(throws: OAuthRegistrationError.self) {
            try OAuthClient.confidential(id: "a", secret: "short", redirectURIs: ["https://localhost"])
        }
        let client = try OAuthClient.confidential(
            id: "office", secret: "a-long-enough-secret", redirectURIs: ["https://localhost"],
            hasher: PasswordHasher(logN: 4))
        guard case .confidential(let hash) = client.kind else { Issue.record("not confidential"); return }
        #expect(!hash.contains("a-long-enough-secret"))
        #expect(PasswordHasher().verify("a-long-enough-secret", against: hash))
    }

    @Test("matching is exact, except the port of a loopback URI")
    func matching() throws {
        let client = try OAuthClient(
            id: "app", kind: .public,
            redirectURIs: ["http://127.0.0.1/cb", "http://[::1]/cb", "com.example.app:/oauth", "https://localhost"])
        #expect(client.matchingRedirectURI("http://127.0.0.1:5555/cb") == "http://127.0.0.1/cb")
        #expect(client.matchingRedirectURI("http://127.0.0.1/cb") == "http://127.0.0.1/cb")
        #expect(client.matchingRedirectURI("http://[::1]:6000/cb") == "http://[::1]/cb")
        #expect(client.matchingRedirectURI("http://127.0.0.1:5555/cb2") == nil)
        #expect(client.matchingRedirectURI("http://127.0.0.1:5555/cb?x=1") == nil)
        #expect(client.matchingRedirectURI("http://localhost:5555/cb") == nil)
        #expect(client.matchingRedirectURI("https://127.0.0.1:5555/cb") == nil)
        #expect(client.matchingRedirectURI("com.example.app:/oauth") == "com.example.app:/oauth")
        #expect(client.matchingRedirectURI("com.example.app:/OAUTH") == nil)
        #expect(client.matchingRedirectURI("https://localhost/") == nil)
        #expect(client.matchingRedirectURI("https://localhost:444") == nil)
    }
}
