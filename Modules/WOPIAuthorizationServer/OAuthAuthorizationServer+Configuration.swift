public import Crypto
public import Foundation
public import Metrics
public import WOPIAccounts
import WOPIModels
import WOPIOAuthCore

extension OAuthAuthorizationServer {
    /// How an ``OAuthAuthorizationServer`` behaves. Every property has a sensible default.
    public struct Configuration: Sendable {
        /// The issuer identifier (RFC 8414, RFC 9207 `iss`): the external base URL, such as
        /// `https://wopi.example.com`, also the base of every endpoint URL. When `nil`, each request's origin
        /// (`Host`, `X-Forwarded-Proto`) is used, like `WOPIHostConfiguration.publicURL`; set it in production so a
        /// forged `Host` header cannot change `iss`.
        public var issuer: String?
        /// The scheme the server itself serves (`http`, or `https` when it terminates TLS): with no ``issuer``,
        /// a request's origin uses it unless a proxy's `X-Forwarded-Proto` says otherwise.
        public var scheme = "http"
        /// The authorization endpoint's path.
        public var authorizationPath = "/oauth2/authorize"
        /// The token endpoint's path.
        public var tokenPath = "/oauth2/token"
        /// The revocation endpoint's path (RFC 7009).
        public var revocationPath = "/oauth2/revoke"
        /// The authorization server metadata path (RFC 8414 §3).
        public var metadataPath = "/.well-known/oauth-authorization-server"
        /// How long an access token lives. Reported as a JSON number of seconds in `expires_in` (RFC 6749 §5.1;
        /// the Docs/wopi-protocol.md §18.4 notes the CSPP sample uses a string, but the RFC says number).
        public var accessTokenLifetime: TimeInterval = 60 * 60
        /// How long a refresh token lives; every refresh returns a new one with a full lifetime (rotation).
        public var refreshTokenLifetime: TimeInterval = 30 * 24 * 60 * 60
        /// How long an authorization code may be redeemed; capped at 10 minutes (RFC 6749 §4.1.2).
        public var codeLifetime: TimeInterval = 10 * 60
        /// How long a sign-in form stays valid after it was shown.
        public var formLifetime: TimeInterval = 15 * 60
        /// Whether the token endpoint issues refresh tokens (the onboarding's `SupportRefresh`).
        public var issuesRefreshTokens = true
        /// The scope granted when a request names none.
        public var defaultScope = "wopi"
        /// The scopes a client may be granted; `nil` grants ``defaultScope`` only. Office sends the scope agreed at
        /// onboarding. A request's other scopes are left out of the grant (RFC 6749 §3.3: the token response then
        /// says the narrower scope), and a request with none of these is refused with `invalid_scope`.
        public var supportedScopes: Set<String>?

        /// The scopes granted at most: ``supportedScopes``, or ``defaultScope`` alone.
        var grantableScopes: Set<String> { supportedScopes ?? [defaultScope] }
        /// The name shown on the sign-in page ("Sign in to …").
        public var serviceName = "WOPIKit"
        /// The privacy statement linked from the sign-in page (Office's manual test 8 requires one), and
        /// published as `op_policy_uri`.
        public var privacyStatementURL: String?
        /// An absolute token endpoint URL sent as `tk=` on the final redirect, which Office then uses instead of
        /// `tokenIssuance_uri` for the code exchange and every refresh (Docs/wopi-protocol.md §10.2). `nil` sends none.
        public var tokenEndpointOverride: String?
        /// The session context sent as `sc=` on the final redirect (Docs/wopi-protocol.md §10.3), chosen per user and
        /// client; `nil` (or a `nil` result) sends none. Office echoes it in `X-WOPI-SessionContext`.
        public var sessionContext: (@Sendable (WOPIUser, OAuthClient) -> String?)?
        /// The key that signs sign-in forms against cross-site request forgery. Give every process of one
        /// deployment the same key (for example from `SecretKeyFile`); `nil` makes a random key per server.
        public var formKey: SymmetricKey?
        /// Hashes and verifies client secrets and user passwords.
        public var passwordHasher = PasswordHasher()
        /// How failed sign-ins and client authentications are slowed down (per account or client, and per client
        /// address), kept in the server's ``SignInThrottleStore``.
        public var signInThrottle = SignInThrottlePolicy()
        /// How many password hashes may run and wait at once.
        public var passwordHashLimits = PasswordHashLimits()
        /// Where the server's metrics go (sign-ins by result, reused grants; Docs/operations.md); `nil` (the
        /// default) records them through the process's `MetricsSystem`.
        public var metricsFactory: (any MetricsFactory)?

        /// Creates a configuration with the defaults.
        public init() {}
    }
}
