import Crypto
import Foundation
import HTTPTypes
import Synchronization
import Testing
import WOPIAuthorizationServer
import WOPIDeployment
import WOPIHTTPEdge
import WOPIServer

/// The host pages' sessions are kept by the server: signing out ends a session for every copy of its cookie, on
/// every host of the store, and an expired, ended or superseded session signs nobody in.
@Suite("Host page sessions")
struct HostSessionTests {
    static let ana = WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: "h1")

    /// A request carrying `cookie` (the `name=value` part of a `Set-Cookie` value).
    static func request(_ method: HTTPRequest.Method = .get, cookie: String?) -> WOPIRequest {
        var head = HTTPRequest(method: method, scheme: "http", authority: "wopi.test", path: "/files")
        if let cookie { head.headerFields[.cookie] = String(cookie.prefix { $0 != ";" }) }
        return WOPIRequest(head: head)
    }

    @Test(arguments: ["memory", "sqlite", "file"])
    func signingOutEndsTheSessionForACopiedCookieOnEveryHostOfTheStore(kind: String) async throws {
        let (store, folder) = try OAuthStoreTests.makeStore(kind)
        defer { folder.map { try? FileManager.default.removeItem(at: $0) } }
        let users = InMemoryUserDirectory([Self.ana])
        let key = SymmetricKey(size: .bits256)
        let first = HostSessions(key: key, store: store)
        let second = HostSessions(key: key, store: store)  // another host of the same deployment

        let cookie = try await first.cookie(for: Self.ana, secure: false)
        let copy = Self.request(cookie: cookie)
        #expect(try await first.signedInUser(of: copy, in: users, secure: false)?.id == "ana")
        #expect(try await second.signedInUser(of: copy, in: users, secure: false)?.id == "ana")

        let removal = try await second.signOut(Self.request(.post, cookie: cookie), secure: false)
        #expect(removal.contains("Max-Age=0"))
        #expect(try await first.signedInUser(of: copy, in: users, secure: false) == nil, "a copied cookie lives on")
        #expect(try await second.signedInUser(of: copy, in: users, secure: false) == nil)
    }

    @Test func aSessionEndsAtItsLifetimeOnTheInjectedClock() async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_000_000))
        let sessions = HostSessions(
            key: SymmetricKey(size: .bits256), store: InMemoryOAuthStore(), lifetime: 60,
            now: { clock.withLock { $0 } })
        let users = InMemoryUserDirectory([Self.ana])
        let request = Self.request(cookie: try await sessions.cookie(for: Self.ana, secure: false))
        clock.withLock { $0 += 59 }
        #expect(try await sessions.signedInUser(of: request, in: users, secure: false) != nil)
        clock.withLock { $0 += 2 }
        #expect(try await sessions.signedInUser(of: request, in: users, secure: false) == nil)
    }

    @Test func aCookieTheStoreNeverKeptOrAnOAuthTokenOrAStaleStampSignsNobodyIn() async throws {
        let store = InMemoryOAuthStore()
        let sessions = HostSessions(key: SymmetricKey(size: .bits256), store: store)
        let users = InMemoryUserDirectory([Self.ana])
        let made = Self.request(cookie: "\(HostSessions.cookieName)=\(OAuthTokenHash.randomToken())")
        #expect(try await sessions.signedInUser(of: made, in: users, secure: false) == nil)

        // An OAuth access token's value as a session cookie: kept by the same store, but of another kind.
        let access = OAuthTokenHash.randomToken()
        try await store.saveToken(
            OAuthTokenRecord(
                hash: OAuthTokenHash.hash(access), kind: .access, clientID: "office", userID: "ana", scope: "",
                familyID: "f", expiresAt: .now + 600))
        let borrowed = Self.request(cookie: "\(HostSessions.cookieName)=\(access)")
        #expect(try await sessions.signedInUser(of: borrowed, in: users, secure: false) == nil)

        // A session begun before the password changed.
        let request = Self.request(cookie: try await sessions.cookie(for: Self.ana, secure: false))
        var changed = Self.ana
        changed.passwordHash = "h2"
        let afterReset = InMemoryUserDirectory([changed])
        #expect(try await sessions.signedInUser(of: request, in: afterReset, secure: false) == nil)
        // Over HTTPS only the __Host- name is read.
        #expect(try await sessions.signedInUser(of: request, in: users, secure: true) == nil)
    }
}
