import Foundation
import Synchronization
import Testing
import WOPIClient
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// A token provider that counts and can be told to hand out a fresh OAuth token after a rejection.
final class CountingTokenProvider: BootstrapTokenProvider {
    let oauth: TestOAuthServer
    let current: Mutex<String>
    let invalidations = Mutex(0)

    init(oauth: TestOAuthServer) {
        self.oauth = oauth
        current = Mutex(oauth.issueAccessToken())
    }

    func accessToken() async throws -> String { current.withLock { $0 } }

    func invalidate(accessToken: String) async {
        invalidations.withLock { $0 += 1 }
        current.withLock { if $0 == accessToken { $0 = oauth.issueAccessToken() } }
    }
}

/// The bootstrapper, Add a Place, GetNewAccessToken with transparent retry, and the lock refresher, against a
/// real host with an OAuth-protected bootstrapper, in-process.
@Suite("Bootstrapper, token renewal and lock refresh")
struct BootstrapperAndTokenTests {
    @Test("Add a Place: unauthenticated 401 challenge, then GetRootContainer and browsing with a token")
    func addPlace() async throws {
        try await OAuthWOPIHost.run { live in
            try await live.withClient(bootstrapper: live.bootstrapperURL) { anonymous in
                let challenge = try await anonymous.bootstrapChallenge()
                #expect(challenge.authorizationURI.absoluteString == live.baseURL + "/oauth2/authorize")
                #expect(challenge.tokenIssuanceURI.absoluteString == live.baseURL + "/oauth2/token")
                let error = await clientError { try await anonymous.addPlace() }
                #expect(error?.code == .signInRequired)
                #expect(error?.challenge == challenge)
            }
            let provider = CountingTokenProvider(oauth: live.oauth)
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: provider) { client in
                let place = try await client.addPlace()
                #expect(place.bootstrap.userID == "ana" && place.bootstrap.signInName == "ana@example.com")
                #expect(place.root.info?.isEduUser == false)
                #expect(try await client.checkEcosystem(place.ecosystem).supportsContainers == true)
                let (info, children) = try await client.browse(place.root.resource)
                #expect(info.name == place.root.name)
                #expect(children.files.map(\.name) == ["Welcome.docx"])
                #expect(children.containers.map(\.name) == ["Documents"])
            }
        }
    }

    @Test("a rejected OAuth token is invalidated once and the call retried with a fresh one")
    func oauthTokenRenewal() async throws {
        try await OAuthWOPIHost.run { live in
            let provider = CountingTokenProvider(oauth: live.oauth)
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: provider) { client in
                _ = try await client.bootstrap()
                live.oauth.expireAccessTokens()
                #expect(try await client.bootstrap().userID == "ana")
                #expect(provider.invalidations.withLock { $0 } == 1)
            }
            let stale = StaticBootstrapTokenProvider(token: "revoked")
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: stale) { client in
                let error = await clientError { try await client.bootstrap() }
                #expect(error?.code == .signInRequired)
                #expect(error?.challenge?.tokenIssuanceURI.absoluteString == live.baseURL + "/oauth2/token")
            }
        }
    }

    @Test("an expired WOPI token: 401, GetNewAccessToken, retry once — transparently")
    func wopiTokenRenewal() async throws {
        try await OAuthWOPIHost.run { live in
            let root = try await live.host.storage.rootContainer(forUser: "ana")
            let welcome = try #require(try await live.host.storage.child(named: "Welcome.docx", in: root.id))
            // A one-second token whose expiry the client does not know, so the host's 401 is what tells.
            let short = live.wopiToken(.file(welcome.id), lifetime: 1)
            let file = try WOPIResource(endpoint: live.endpoint("files", welcome.id), accessToken: short.token)
            let folderToken = live.wopiToken(.container(root.id), lifetime: 1)
            let folder = try WOPIResource(
                endpoint: live.endpoint("containers", root.id), accessToken: folderToken.token)
            live.clock.advance(by: .milliseconds(1500))

            try await live.withClient { client in
                let error = await clientError { try await client.checkFileInfo(file) }
                #expect(error?.code == .unauthorized)
            }
            let provider = CountingTokenProvider(oauth: live.oauth)
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: provider) { client in
                #expect(try await client.checkFileInfo(file).baseFileName == "Welcome.docx")
                #expect(try await TestContent.read(client.getFile(file).body) == "welcome")
                #expect(try await client.enumerateChildren(of: folder).files.count == 1)
                // The renewed token is kept for every holder of the old resource.
                try await client.lock(file, lockID: "renewed")
                try await client.putFile(file, content: TestContent.text("updated"), lock: "renewed")
                try await client.unlock(file, lockID: "renewed")
                #expect(try await TestContent.read(client.getFile(file).body) == "updated")
            }
            // A token whose expiry is known is renewed before the call, so even an upload (which cannot be
            // replayed after a 401) reaches the host: here it gets the host's lock answer, not a 401.
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: provider) { client in
                let known = try WOPIResource(endpoint: file.endpoint, accessToken: short.token, expiry: short.expiry)
                let error = await clientError {
                    try await client.putFile(known, content: TestContent.text("x"), lock: "not-held")
                }
                #expect(error?.code == .lockConflict && error?.currentLock == "")
            }
            // An upload with an expired token of unknown expiry cannot be replayed: the error says so.
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: provider) { client in
                let error = await clientError {
                    try await client.putFile(file, content: TestContent.text("x"), lock: "none")
                }
                #expect(error?.code == .unauthorized)
                #expect(error?.message.contains("cannot be replayed") == true)
            }
        }
    }

    @Test("the lock refresher keeps a lock alive past its lifetime until the file is closed")
    func lockRefresher() async throws {
        let clock = TestClock()
        try await OAuthWOPIHost.run(clock: clock, configure: { $0.lockDuration = 5 }) { live in
            let provider = CountingTokenProvider(oauth: live.oauth)
            try await live.withClient(bootstrapper: live.bootstrapperURL, tokenProvider: provider) { client in
                let place = try await client.addPlace()
                let file = try #require(try await client.enumerateChildren(of: place.root.resource).files.first)
                let session = try await client.openForEditing(
                    file.resource, refreshInterval: .milliseconds(250), clock: clock)
                // 6 s on the host's and the refresher's clock, past the 5 s lifetime, in 250 ms steps: each step
                // waits until the refresher sleeps again, so it has finished the refresh before.
                for _ in 0..<24 {
                    await clock.waitForSleepers()
                    clock.advance(by: .milliseconds(250))
                }
                await clock.waitForSleepers()
                #expect(try await client.getLock(file.resource) == session.lockID)
                #expect(await session.refreshCount >= 3)
                try await session.close()
                #expect(try await client.getLock(file.resource) == "")

                // Without the refresher the same lock lapses.
                try await client.lock(file.resource, lockID: "lapsing")
                clock.advance(by: .milliseconds(5500))
                #expect(try await client.getLock(file.resource) == "")
            }
        }
    }
}
