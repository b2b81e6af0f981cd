import Foundation
import Testing
import WOPIOAuth
import WOPIOAuthCore
import WOPITestSupport

@Suite("Native app sign-in against a real authorization server")
struct NativeAppAuthorizerTests {
    let authorizer = NativeAppAuthorizer(timeout: Polling.patience, logger: quietLogger)

    /// Runs the whole flow with a scripted browser; returns the outcome and what the browser tab showed.
    private func signIn(
        _ server: TestAuthorizationServer, configuration: OAuthClientConfiguration? = nil
    ) async -> (Result<TokenSet, OAuthError>, ScriptedUserAgent.Visit?) {
        let browser = ScriptedUserAgent()
        let result: Result<TokenSet, OAuthError>
        do {
            result = .success(
                try await authorizer.authorize(
                    configuration: configuration ?? server.configuration(), userAgent: browser))
        } catch {
            result = .failure(error)
        }
        return (result, await browser.nextVisit())
    }

    @Test(arguments: [
        ClientAuthentication.none, .clientSecretBasic(secret: "s3cr:t /+"), .clientSecretPost(secret: "p@ss word"),
    ])
    func signsInWithPKCE(_ authentication: ClientAuthentication) async throws {
        try await TestAuthorizationServer.with(.init(clientAuthentication: authentication)) { server in
            let (result, visit) = await signIn(server)
            let tokens = try result.get()
            #expect(tokens.accessToken.hasPrefix("at-"))
            #expect(tokens.refreshToken?.hasPrefix("rt-") == true)
            #expect(tokens.scope == "wopi")
            let expiresAt = try #require(tokens.expiresAt)
            #expect(abs(expiresAt.timeIntervalSinceNow - 3600) < 60)
            #expect(server.codeExchanges == 1)

            let page = try #require(visit)
            #expect(page.status == 200)
            #expect(page.page.contains("Signed in. You can close this tab."))
            #expect(page.finalURL?.host == "127.0.0.1")
            #expect(page.finalURL?.path == "/callback")
            let query = try #require(server.authorizeQueries.first)
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
            #expect((query["state"]?.count ?? 0) >= 22)
        }
    }

    @Test func rejectsAForgedState() async throws {
        try await TestAuthorizationServer.with(.init(stateOverride: "forged")) { server in
            let (result, visit) = await signIn(server)
            #expect(throws: OAuthError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.code == .stateMismatch) }
            #expect(server.codeExchanges == 0)
            #expect(visit?.status == 400)
            #expect(visit?.page.contains("Sign-in failed") == true)
        }
    }

    @Test func rejectsAMixedUpIssuer() async throws {
        try await TestAuthorizationServer.with(.init(issuerOverride: "https://attacker.example")) { server in
            let (result, visit) = await signIn(server)
            if case .failure(let error) = result {
                #expect(error.code == .issuerMismatch)
            } else {
                Issue.record("accepted a redirect from another issuer")
            }
            #expect(server.codeExchanges == 0)
            #expect(visit?.page.contains("attacker.example") == true)
        }
    }

    @Test func reportsTheServersError() async throws {
        try await TestAuthorizationServer.with(.init(authorizeError: "access_denied")) { server in
            let (result, visit) = await signIn(server)
            guard case .failure(let error) = result else {
                Issue.record("an error redirect produced tokens")
                return
            }
            #expect(error.code == .accessDenied)
            #expect(error.serverDescription == "The user said no & closed <the> window")
            // The description reaches the page escaped, never as markup.
            #expect(visit?.page.contains("&lt;the&gt;") == true)
            #expect(visit?.page.contains("<the>") == false)
        }
    }

    @Test func reportsAWrongClientSecret() async throws {
        try await TestAuthorizationServer.with(.init(clientAuthentication: .clientSecretBasic(secret: "a"))) { server in
            var configuration = server.configuration()
            configuration.clientAuthentication = .clientSecretBasic(secret: "b")
            let (result, _) = await signIn(server, configuration: configuration)
            guard case .failure(let error) = result else {
                Issue.record("a wrong secret produced tokens")
                return
            }
            #expect(error.code == .invalidClient)
            #expect(error.httpStatus == 401)
        }
    }

    @Test func usesOfficeTokenEndpointAndSessionContext() async throws {
        let behavior = TestAuthorizationServer.Behavior(expiresInAsString: true, officeSessionContext: "hello:World")
        try await TestAuthorizationServer.with(behavior) { server in
            let (result, _) = await signIn(server)
            let tokens = try result.get()
            #expect(tokens.tokenEndpoint?.path == "/alt/token")
            #expect(tokens.sessionContext == "hello:World")
            #expect(tokens.expiresAt != nil)
            // Refreshes go to the tk endpoint too, with the session context header (the server checks it).
            let client = TokenEndpointClient(configuration: server.configuration(), logger: quietLogger)
            let refreshed = try await client.refresh(tokens)
            #expect(refreshed.tokenEndpoint == tokens.tokenEndpoint)
            #expect(server.refreshRequests == 1)
            #expect(server.tokenRequestHeaders.last?["x-wopi-sessioncontext"] == "hello:World")
        }
    }

    @Test func discoversMetadata() async throws {
        try await TestAuthorizationServer.with { server in
            let issuer = try #require(URL(string: server.issuer))
            let metadata = try #require(try await AuthorizationServerMetadata.discover(issuer: issuer))
            #expect(metadata.issuer == server.issuer)
            #expect(metadata.authorizationResponseIssParameterSupported == true)
            let configuration = try OAuthClientConfiguration(metadata: metadata, clientID: "wopi-cli", scopes: ["wopi"])
            #expect(configuration.requiresIssuerParameter)
            let (result, _) = await signIn(server, configuration: configuration)
            #expect(try result.get().refreshToken != nil)

            // A server without metadata answers 404: discovery says "none" rather than failing.
            server.update { $0.servesMetadata = false }
            #expect(try await AuthorizationServerMetadata.discover(issuer: issuer) == nil)
            // An issuer with a path has its own well-known URL, which this server does not serve.
            server.update { $0.servesMetadata = true }
            let tenant = try #require(URL(string: server.issuer + "/tenant"))
            #expect(
                AuthorizationServerMetadata.wellKnownURL(for: tenant)?.path
                    == "/.well-known/oauth-authorization-server/tenant")
            #expect(try await AuthorizationServerMetadata.discover(issuer: tenant) == nil)
            // Metadata naming another issuer is rejected.
            server.update { $0.metadataIssuerOverride = "https://attacker.example" }
            do {
                _ = try await AuthorizationServerMetadata.discover(issuer: issuer)
                Issue.record("accepted metadata of another issuer")
            } catch let error as OAuthError {
                #expect(error.code == .issuerMismatch)
            }
        }
    }

    @Test func doesNotFollowARedirectingTokenEndpoint() async throws {
        try await TestAuthorizationServer.with { server in
            var configuration = server.configuration()
            configuration.tokenEndpoint = server.baseURL.appendingPathComponent("moved/token")
            let client = TokenEndpointClient(configuration: configuration, logger: quietLogger)
            do {
                _ = try await client.exchange(
                    code: "c", redirectURI: URL(string: "http://127.0.0.1:1/callback")!,
                    codeVerifier: PKCE().verifier)
                Issue.record("a redirecting token endpoint produced tokens")
            } catch let error as OAuthError {
                #expect(error.code == .invalidResponse)
                #expect(error.httpStatus == 307)
            }
            #expect(server.codeExchanges == 0)
        }
    }

    @Test func failsFastWhenNoBrowserOpens() async throws {
        try await TestAuthorizationServer.with { server in
            let browser = SystemBrowser(environment: [:], fallbackCommands: [["/nonexistent/browser"]])
            do {
                _ = try await authorizer.authorize(configuration: server.configuration(), userAgent: browser)
                Issue.record("signed in without a browser")
            } catch let error as OAuthError {
                #expect(error.code == .userAgentFailed)
            }
        }
    }
}
