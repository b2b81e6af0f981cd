import Foundation
import Testing
import WOPIOAuth
import WOPITestSupport

@Suite("OAuth session: single-flight refresh against a real server")
struct OAuthSessionTests {
    /// A session holding freshly minted tokens that expire in an hour on the test clock.
    private func session(
        _ server: TestAuthorizationServer, clock: TestClock, store: (any TokenStore)? = nil
    ) async throws -> (OAuthSession, TokenSet) {
        let (access, refresh) = server.mintTokens()
        let tokens = TokenSet(
            accessToken: access, refreshToken: refresh, expiresAt: clock.date.addingTimeInterval(3600))
        let client = TokenEndpointClient(
            configuration: server.configuration(), logger: quietLogger, now: clock.dateSource)
        let session = OAuthSession(client: client, store: store, key: "k", now: clock.dateSource)
        try await session.signIn(with: tokens)
        return (session, tokens)
    }

    @Test func handsOutTheCurrentTokenUntilShortlyBeforeExpiry() async throws {
        try await TestAuthorizationServer.with { server in
            let clock = TestClock()
            let (session, tokens) = try await session(server, clock: clock)
            #expect(try await session.validAccessToken() == tokens.accessToken)
            clock.advance(by: 3600 - 61)
            #expect(try await session.validAccessToken() == tokens.accessToken)
            #expect(server.refreshRequests == 0)
            clock.advance(by: 2)  // inside the 60 s leeway
            let refreshed = try await session.validAccessToken()
            #expect(refreshed != tokens.accessToken)
            #expect(server.refreshRequests == 1)
        }
    }

    @Test func concurrentCallersShareOneRefresh() async throws {
        try await TestAuthorizationServer.with(.init(refreshDelay: .milliseconds(200))) { server in
            let clock = TestClock()
            let store = InMemoryTokenStore()
            let (session, tokens) = try await session(server, clock: clock, store: store)
            clock.advance(by: 7200)
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await session.validAccessToken() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(results.count == 20)
            #expect(Set(results).count == 1)
            #expect(results.first != tokens.accessToken)
            #expect(server.refreshRequests == 1)
            #expect(server.reuseDetected == 0)
            // The rotated refresh token was stored, and the next refresh uses it without tripping reuse detection.
            let stored = try #require(try await store.load(key: "k"))
            #expect(stored.accessToken == results.first)
            #expect(stored.refreshToken != tokens.refreshToken)
            clock.advance(by: 7200)
            _ = try await session.validAccessToken()
            #expect(server.refreshRequests == 2)
            #expect(server.reuseDetected == 0)
        }
    }

    @Test func manyRejectionsCauseOneRefresh() async throws {
        try await TestAuthorizationServer.with(.init(refreshDelay: .milliseconds(100))) { server in
            let clock = TestClock()
            let (session, tokens) = try await session(server, clock: clock)
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await session.refreshedAccessToken(replacing: tokens.accessToken) }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(results).count == 1)
            #expect(results.first != tokens.accessToken)
            #expect(server.refreshRequests == 1)
            // A late caller with the old token gets the new one without another refresh.
            #expect(try await session.refreshedAccessToken(replacing: tokens.accessToken) == results.first)
            #expect(server.refreshRequests == 1)
        }
    }

    @Test func invalidGrantClearsTokensAndAsksToSignInAgain() async throws {
        try await TestAuthorizationServer.with { server in
            let clock = TestClock()
            let store = InMemoryTokenStore()
            let (session, original) = try await session(server, clock: clock, store: store)
            clock.advance(by: 7200)
            _ = try await session.validAccessToken()  // rotates the refresh token
            // Someone replays the old refresh token: the server detects the reuse and revokes the whole grant.
            let client = TokenEndpointClient(configuration: server.configuration(), logger: quietLogger)
            do {
                _ = try await client.refresh(original)
                Issue.record("a reused refresh token was accepted")
            } catch let error as OAuthError {
                #expect(error.code == .invalidGrant)
                #expect(error.requiresSignIn)
            }
            #expect(server.reuseDetected == 1)
            clock.advance(by: 7200)
            do {
                _ = try await session.validAccessToken()
                Issue.record("a revoked grant still produced a token")
            } catch let error as OAuthError {
                #expect(error.code == .signInRequired)
                #expect(error.message.contains("sign in again"))
                #expect(error.serverErrorCode == "invalid_grant")
            }
            #expect(await session.isSignedIn == false)
            #expect(try await store.load(key: "k") == nil)
            await #expect(throws: OAuthError.self) { try await session.validAccessToken() }
        }
    }

    @Test func withoutRefreshTokenAnExpiredSessionNeedsSignIn() async throws {
        try await TestAuthorizationServer.with { server in
            let clock = TestClock()
            let client = TokenEndpointClient(configuration: server.configuration(), logger: quietLogger)
            let session = OAuthSession(
                client: client, tokens: TokenSet(accessToken: "a", expiresAt: clock.date.addingTimeInterval(10)),
                now: clock.dateSource)
            clock.advance(by: 20)
            do {
                _ = try await session.validAccessToken()
                Issue.record("an expired token without refresh token was handed out")
            } catch let error as OAuthError {
                #expect(error.code == .signInRequired)
            }
            #expect(server.refreshRequests == 0)
        }
    }

    @Test func restoresFromAStoreAndSignsOut() async throws {
        try await TestAuthorizationServer.with { server in
            let clock = TestClock()
            let store = InMemoryTokenStore()
            let (_, tokens) = try await session(server, clock: clock, store: store)
            let client = TokenEndpointClient(configuration: server.configuration(), logger: quietLogger)
            let restored = try await OAuthSession.restore(client: client, store: store, key: "k", now: clock.dateSource)
            #expect(try await restored.validAccessToken() == tokens.accessToken)
            try await restored.signOut()
            #expect(try await store.load(key: "k") == nil)
            let empty = try await OAuthSession.restore(client: client, store: store, key: "k")
            await #expect(throws: OAuthError.self) { try await empty.validAccessToken() }
        }
    }

    @Test func aTransientFailureKeepsAStillValidToken() async throws {
        let clock = TestClock()
        // A token endpoint that refuses connections: the server is stopped.
        let server = try await TestAuthorizationServer.start()
        let configuration = server.configuration()
        await server.stop()
        let client = TokenEndpointClient(configuration: configuration, logger: quietLogger)
        let tokens = TokenSet(accessToken: "a", refreshToken: "r", expiresAt: clock.date.addingTimeInterval(30))
        let session = OAuthSession(client: client, tokens: tokens, now: clock.dateSource)
        // Inside the leeway the refresh fails, but the token has not expired yet.
        #expect(try await session.validAccessToken() == "a")
        clock.advance(by: 60)
        do {
            _ = try await session.validAccessToken()
            Issue.record("an expired token was handed out")
        } catch {
            #expect(error.code == .transport)
        }
        #expect(await session.isSignedIn)
    }
}
