import Crypto
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import WOPIAuthorizationServer
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport
import WOPITesting

/// An authorization server and WOPI host (with the bootstrapper), driven in-process (`WOPITestClient`), or on
/// 127.0.0.1 with an OS-chosen port when `overSocket` (for a browser, or a test of the peer address).
///
/// Users: `ana` (sign-in name `ana@example.com`, password ``password``). Clients: `office` (confidential, secret
/// ``officeSecret``, redirect `https://localhost`) and `native` (public, loopback `http://127.0.0.1/callback` and
/// `com.example.app:/oauth`). `GET /callback` answers "signed in", as a loopback redirect target for browsers.
struct TestAuthServer: HarnessHTTP {
    static let password = "correct horse battery staple"
    static let officeSecret = "office-secret-0123456789abcdef"
    static let hasher = PasswordHasher(logN: 4)
    /// Ana's password hash, one for every server of the test process: a server restarted on the same stores sees the
    /// same user (a new hash would be a new password, which revokes every credential issued before).
    static let passwordHash = (try? hasher.hash(password)) ?? ""

    let server: OAuthAuthorizationServer
    let host: WOPIHost
    let baseURL: String
    let client: WOPITestClient?
    let clock: TestClock
    /// The host's shares (its policy is the owner plus these).
    let shares: InMemoryShareStore

    var authorizeURL: String { baseURL + "/oauth2/authorize" }
    var tokenURL: String { baseURL + "/oauth2/token" }
    var revokeURL: String { baseURL + "/oauth2/revoke" }
    var loopbackRedirect: String { baseURL + "/callback" }

    /// Runs `body` against a fresh server (in-process, or on a socket when `overSocket`), then shuts it down.
    static func run<T: Sendable>(
        store: (any OAuthStore)? = nil, throttle: any SignInThrottleStore = InMemorySignInThrottleStore(),
        clock: TestClock = TestClock(), overSocket: Bool = false,
        configure: @Sendable (inout OAuthAuthorizationServer.Configuration) -> Void = {
            _ in
        }, _ body: @Sendable (TestAuthServer) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let users = InMemoryUserDirectory()
        await users.save(
            WOPIUser(
                id: "ana", signInName: "ana@example.com", displayName: "Ana",
                passwordHash: passwordHash))
        let store = store ?? InMemoryOAuthStore()
        try await registerClients(in: store)
        var configuration = OAuthAuthorizationServer.Configuration()
        configuration.passwordHasher = hasher
        configuration.privacyStatementURL = "https://example.com/privacy"
        configure(&configuration)
        let server = OAuthAuthorizationServer(
            store: store, users: users, throttle: throttle, configuration: configuration, logger: logger,
            now: clock.dateSource, clock: clock)
        let storage = InMemoryStorage()
        let shares = InMemoryShareStore()
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(), users: users,
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)),
            bootstrapper: BootstrapperConfiguration(verifier: server),
            policy: SharingAccessPolicy(storage: storage, shares: shares), logger: logger, now: clock.dateSource)
        let router = Router(context: WOPIRequestContext.self)
        WOPIRoutes.add(to: router, host: host)
        WOPIRoutes.add(to: router, endpoints: server)
        router.get("callback") { _, _ in "signed in" }
        router.get("favicon.ico") { _, _ in Response(status: .noContent) }
        guard overSocket else {
            return try await WOPITestClient.run(router: router) { client in
                try await body(
                    TestAuthServer(
                        server: server, host: host, baseURL: WOPITestClient.origin, client: client, clock: clock,
                        shares: shares))
            }
        }
        return try await LoopbackServer.run(router, logger: logger) { baseURL in
            try await body(
                TestAuthServer(
                    server: server, host: host, baseURL: baseURL, client: nil, clock: clock, shares: shares))
        }
    }

    /// Registers the test clients (idempotent).
    static func registerClients(in store: any OAuthStore) async throws {
        try await store.saveClient(
            .confidential(
                id: "office", secret: officeSecret, redirectURIs: ["https://localhost"], name: "Microsoft Office",
                hasher: hasher))
        try await store.saveClient(
            OAuthClient(
                id: "native", kind: .public, redirectURIs: ["http://127.0.0.1/callback", "com.example.app:/oauth"]))
    }
}
