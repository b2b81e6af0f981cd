import Crypto
public import Foundation
import HTTPTypes
public import Logging
import Metrics
import NIOCore
public import WOPIAccounts
public import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

/// An OAuth 2.0 authorization server for Office for iOS and Android (CSPP) and native apps, framework-neutral.
///
/// It implements the authorization code grant (RFC 6749) with PKCE S256 (RFC 7636, required for public clients),
/// native-app redirect rules (RFC 8252), refresh-token rotation with reuse detection (RFC 9700), revocation
/// (RFC 7009), server metadata (RFC 8414) and the `iss` response parameter (RFC 9207), plus Office's `tk=` and
/// `sc=` redirect extras. Users sign in on a plain HTML page against the host's ``UserDirectory``. Codes and
/// tokens are kept hashed in an ``OAuthStore``. It is the bootstrapper's ``OAuthAccessTokenVerifier``.
///
/// Endpoints (paths from ``Configuration``): `GET`/`POST /oauth2/authorize`, `POST /oauth2/token`,
/// `POST /oauth2/revoke`, `GET /.well-known/oauth-authorization-server`. An adapter mounts them as
/// ``HTTPEndpoints`` (`WOPIRoutes.add(to:endpoints:)` in `WOPIServerHummingbird`) and passes their requests to
/// ``handle(_:)``. The WOPI core does not depend on this module: a provider with its own identity provider
/// implements ``OAuthAccessTokenVerifier`` and does not link it.
///
/// ```swift
/// let oauth = OAuthAuthorizationServer(store: FileOAuthStore(url: oauthFile), users: users)
/// let host = WOPIHost(storage: storage, locks: locks, users: users, tokens: signer,
///                     bootstrapper: BootstrapperConfiguration(verifier: oauth))
/// ```
public final class OAuthAuthorizationServer: OAuthAccessTokenVerifier, HTTPEndpoints, Sendable {
    /// Where clients, codes and tokens live.
    public let store: any OAuthStore
    /// The users who may sign in.
    public let users: any UserDirectory
    /// Where failed sign-ins and client authentications are counted (see ``SignInThrottlePolicy``).
    public let throttle: any SignInThrottleStore
    /// Where sign-ins (with the client's address) and token issues are recorded; `nil` records nothing.
    public let audit: (any AuditLog)?
    /// Behaviour settings.
    public let configuration: Configuration
    let formTokens: AuthorizationFormToken
    let logger: Logger
    let now: @Sendable () -> Date
    package let hashLimiter: PasswordHashLimiter
    /// The sign-in attempts under way in this process, counted before their hashes run.
    let attempts = SignInAttemptGate()
    let metrics: SignInMetrics
    /// A hash verified when the user or client is unknown, so that a miss costs as much time as a wrong password.
    private let decoyHash: String

    /// Creates a server.
    ///
    /// - Parameters:
    ///   - store: where clients, codes and tokens live.
    ///   - users: the users who may sign in.
    ///   - throttle: where failed sign-ins are counted; give it a persistent store (the one beside `store`) so
    ///     that a restart does not lift lock-outs.
    ///   - now: the clock, for tests.
    ///   - clock: the clock that bounds waits for a password-hash slot, for tests.
    public init(
        store: any OAuthStore, users: any UserDirectory,
        throttle: any SignInThrottleStore = InMemorySignInThrottleStore(),
        configuration: Configuration = Configuration(), audit: (any AuditLog)? = nil,
        logger: Logger = Logger(label: "wopikit.oauth"),
        now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.users = users
        self.throttle = throttle
        self.audit = audit
        self.hashLimiter = PasswordHashLimiter(configuration.passwordHashLimits, clock: clock)
        self.configuration = configuration
        self.formTokens = AuthorizationFormToken(key: configuration.formKey ?? SymmetricKey(size: .bits256))
        self.logger = logger
        self.now = now
        self.metrics = SignInMetrics(factory: configuration.metricsFactory ?? MetricsSystem.factory)
        self.decoyHash = configuration.passwordHasher.decoyHash()
    }

    /// The routes of this server, for adapters that mount it: the authorization endpoint (`GET` shows the sign-in
    /// page, `POST` signs in), the token and revocation endpoints (`POST`) and the metadata (`GET`).
    ///
    /// Each request is a server span of the process's tracer named by its endpoint (`oauth.authorize`,
    /// `oauth.token`, `oauth.revoke`, `oauth.metadata`), a child of the trace context its headers carry. Failures
    /// become OAuth error responses or pages, never thrown errors.
    public var routes: [HTTPRoute] {
        let paths = (configuration.authorizationPath, configuration.tokenPath, configuration.revocationPath)
        return [
            route(.get, paths.0, span: "oauth.authorize") { try await $0.showSignIn($1) },
            route(.post, paths.0, span: "oauth.authorize") { try await $0.signIn($1) },
            route(.post, paths.1, span: "oauth.token") { try await $0.issueToken($1) },
            route(.post, paths.2, span: "oauth.revoke") { try await $0.revoke($1) },
            route(.get, configuration.metadataPath, span: "oauth.metadata") { try $0.metadata($1) },
        ]
    }

    /// The route of one endpoint: `body` in a server span `span`, its failure answered by ``answer(_:to:path:)``.
    private func route(
        _ method: HTTPRequest.Method, _ path: String, span: String,
        _ body: @escaping @Sendable (OAuthAuthorizationServer, WOPIRequest) async throws -> WOPIResponse
    ) -> HTTPRoute {
        HTTPRoute(method, path) { [self] request in
            await withServerSpan(span, for: request) { _ in
                do {
                    return try await body(self, request)
                } catch {
                    return answer(error, to: request, path: path)
                }
            }
        }
    }

    /// The answer to a request that failed with `error`: on the authorization path a page for a sign-in refusal
    /// or a failure (the user is in a browser); an OAuth error's own JSON everywhere; elsewhere a JSON
    /// `server_error` for any other error (a storage failure included: OAuth clients read only OAuth's format).
    private func answer(_ error: any Error, to request: WOPIRequest, path: String) -> WOPIResponse {
        if error is OAuthProtocolError {
            logger.info("OAuth request refused", metadata: ["path": "\(path)", "error": "\(error)"])
        }
        let configuration = configuration
        guard path == configuration.authorizationPath else {
            return WOPIResponse(
                answering: error,
                unexpected: OAuthProtocolError(.serverError, "The server failed.", status: .internalServerError),
                logger: logger, metadata: ["path": "\(path)"])
        }
        return WOPIResponse(
            answering: error, to: request,
            page: {
                AuthorizationPage.response(AuthorizationPage.error($1.text, configuration: configuration), status: $0)
            },
            logger: logger, metadata: ["path": "\(path)"])
    }

    /// The user an access token from this server was issued to; `nil` for an unknown, expired or revoked token,
    /// and for one issued before the user's password changed.
    public func userID(forAccessToken token: String) async throws -> String? {
        try await store.currentUser(holding: token, kind: .access, in: users, now: now())?.id
    }

    // MARK: - Shared helpers

    /// The issuer: the configured one, or the request's origin.
    func issuer(for request: WOPIRequest) -> String {
        request.baseURL(publicURL: configuration.issuer, defaultScheme: configuration.scheme)
    }

    /// Verifies `secret` against `hash` (or the decoy hash) off the cooperative thread pool, since scrypt is slow,
    /// and at most ``Configuration/PasswordHashLimits/concurrency`` at once.
    ///
    /// - Throws: ``SignInRefusal/busy`` when too many hashes already run and wait.
    func verifySecret(_ secret: String, against hash: String?) async throws(SignInRefusal) -> Bool {
        let hasher = configuration.passwordHasher
        let checked = hash ?? decoyHash
        let matches = await hashLimiter.run {
            await TracedWork.passwordHash.traced("password.hash") {
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        continuation.resume(returning: hasher.verify(secret, against: checked))
                    }
                }
            }
        }
        guard let matches else {
            logger.warning("Password hash refused: too many sign-ins at once")
            throw .busy
        }
        return matches && hash != nil
    }
}
