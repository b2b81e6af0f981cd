import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import WOPIClient
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport
import WOPITesting

/// A real WOPI host with a bootstrapper and a small RFC 6749 authorization server (code flow with PKCE S256,
/// refresh tokens), for the tests that need OAuth: GetNewAccessToken and token renewal in-process (a
/// `WOPITestTransport`), and `wopi login` on 127.0.0.1 with an OS-chosen port when `overSocket`.
///
/// - `GET /oauth2/authorize` auto-approves user `ana` with a 302 to the loopback redirect URI.
/// - `POST /oauth2/token` redeems codes (checking the PKCE verifier) and refresh tokens.
/// - `…/wopibootstrapper` is `WOPIHost`'s, verifying the access tokens issued here.
struct OAuthWOPIHost: Sendable {
    let host: WOPIHost
    let baseURL: String
    let oauth: TestOAuthServer
    let user = "ana"
    /// The clock the host reads for token and lock expiry.
    let clock: TestClock
    /// The in-process transport to the host; `nil` over a socket.
    let transport: WOPITestTransport?

    var bootstrapperURL: URL { URL(string: baseURL + "/wopibootstrapper")! }

    /// Runs `body` against a fresh host whose token and lock expiry follow `clock`, in-process or, when
    /// `overSocket`, on 127.0.0.1 (for the `wopi` tool as a process); then shuts it down.
    static func run<T: Sendable>(
        clock: TestClock = TestClock(), overSocket: Bool = false,
        configure: @Sendable (inout WOPIHostConfiguration) -> Void = { _ in },
        bootstrapper configureBootstrapper: @Sendable (inout BootstrapperConfiguration) -> Void = { _ in },
        _ body: @Sendable (OAuthWOPIHost) async throws -> T
    ) async throws -> T {
        let logger = Logger.quiet
        let keyDirectory = try TemporaryDirectory()
        defer { keyDirectory.remove() }
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        let storage = InMemoryStorage()
        let root = await storage.rootContainer(forUser: "ana")
        _ = try await storage.createFile(
            named: "Welcome.docx", in: root.id, content: ByteStream(buffer: ByteBuffer(string: "welcome")),
            overwrite: false)
        _ = try await storage.createContainer(named: "Documents", in: root.id)
        let oauth = TestOAuthServer()
        var configuration = WOPIHostConfiguration()
        configure(&configuration)
        var bootstrapper = BootstrapperConfiguration(verifier: oauth)
        configureBootstrapper(&bootstrapper)
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(now: clock.dateSource), users: users,
            tokens: AccessTokenSigner(
                key: try await SecretKeyFile.loadOrCreate(at: keyDirectory.url.appendingPathComponent("key"))),
            configuration: configuration, bootstrapper: bootstrapper, logger: logger, now: clock.dateSource)
        let router = Router(context: WOPIRequestContext.self)
        WOPIRoutes.add(to: router, host: host)
        router.get("oauth2/authorize") { request, _ in oauth.authorize(request) }
        router.post("oauth2/token") { request, _ in try await oauth.token(request) }
        guard overSocket else {
            return try await WOPITestClient.run(router: router) { client in
                try await body(
                    OAuthWOPIHost(
                        host: host, baseURL: WOPITestClient.origin, oauth: oauth, clock: clock,
                        transport: client.transport))
            }
        }
        return try await LoopbackServer.run(router, logger: logger) { baseURL in
            try await body(OAuthWOPIHost(host: host, baseURL: baseURL, oauth: oauth, clock: clock, transport: nil))
        }
    }

    /// Runs `body` with a client of the host (in-process, or over a fresh socket transport).
    func withClient<T: Sendable>(
        bootstrapper: URL? = nil, tokenProvider: (any BootstrapTokenProvider)? = nil,
        _ body: @Sendable (WOPIClient) async throws -> T
    ) async throws -> T {
        try await WOPIClientTests.withClient(
            over: transport, bootstrapper: bootstrapper, tokenProvider: tokenProvider, body)
    }

    /// A WOPI token for `resource` that expires `lifetime` after the host's clock (as `wopi-host token --ttl`
    /// mints them).
    func wopiToken(_ resource: AccessToken.Resource, lifetime: TimeInterval) -> (token: String, expiry: Date) {
        let expiry = clock.date.addingTimeInterval(lifetime)
        return (host.tokens.mint(AccessToken(userID: user, resource: resource, expiresAt: expiry)), expiry)
    }

    /// The URL of a file or container endpoint, without a token.
    func endpoint(_ kind: String, _ id: ItemID) -> URL { URL(string: "\(baseURL)/wopi/\(kind)/\(id)")! }
}

/// The authorization server's state: codes, access and refresh tokens (all for user `ana`).
final class TestOAuthServer: OAuthAccessTokenVerifier {
    struct Grant {
        var redirectURI: String
        var challenge: String
    }

    struct State {
        var codes: [String: Grant] = [:]
        var accessTokens: Set<String> = []
        var refreshTokens: Set<String> = []
        var authorizations = 0
        var refreshes = 0
        var clientID = "wopi-cli"
    }

    let state = Mutex(State())

    func userID(forAccessToken token: String) async throws -> String? {
        state.withLock { $0.accessTokens.contains(token) } ? "ana" : nil
    }

    /// Issues an access token directly, as if the user had signed in.
    func issueAccessToken() -> String {
        let token = "at-" + UUID().uuidString
        state.withLock { _ = $0.accessTokens.insert(token) }
        return token
    }

    /// Forgets every access token (refresh tokens stay valid), as if they had expired.
    func expireAccessTokens() {
        state.withLock { $0.accessTokens.removeAll() }
    }

    var authorizations: Int { state.withLock { $0.authorizations } }
    var refreshes: Int { state.withLock { $0.refreshes } }

    func authorize(_ request: Request) -> Response {
        let query = FormFields.decode(request.uri.query ?? "")
        guard query["client_id"] == state.withLock({ $0.clientID }), query["response_type"] == "code",
            let redirect = query["redirect_uri"],
            redirect.hasPrefix("http://127.0.0.1:") || redirect.hasPrefix("http://[::1]:"),
            let challenge = query["code_challenge"], query["code_challenge_method"] == "S256"
        else {
            return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "bad authorize request")))
        }
        let code = "code-" + UUID().uuidString
        state.withLock {
            $0.codes[code] = Grant(redirectURI: redirect, challenge: challenge)
            $0.authorizations += 1
        }
        var location = redirect + (redirect.contains("?") ? "&" : "?") + "code=\(code)"
        if let stateValue = query["state"] { location += "&state=" + FormFields.encode(stateValue) }
        return Response(status: .found, headers: [.location: location])
    }

    func token(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let form = FormFields.decode(String(buffer: body))
        let issued: Bool
        switch form["grant_type"] {
        case "authorization_code":
            let grant = state.withLock { state in form["code"].flatMap { state.codes.removeValue(forKey: $0) } }
            issued =
                grant != nil && grant?.redirectURI == form["redirect_uri"]
                && grant?.challenge == FormFields.s256(form["code_verifier"] ?? "")
        case "refresh_token":
            issued = state.withLock { state in
                guard let token = form["refresh_token"], state.refreshTokens.remove(token) != nil else { return false }
                state.refreshes += 1
                return true
            }
        default:
            issued = false
        }
        guard issued else {
            return Response(
                status: .badRequest, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant"}"#)))
        }
        let access = issueAccessToken()
        let refresh = "rt-" + UUID().uuidString
        state.withLock { _ = $0.refreshTokens.insert(refresh) }
        let json =
            #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refresh)"}"#
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}

/// `application/x-www-form-urlencoded` and PKCE helpers.
enum FormFields {
    static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }

    /// BASE64URL(SHA-256(verifier)), the S256 code challenge.
    static func s256(_ verifier: String) -> String {
        var digest = ContentDigest()
        digest.update(ByteBuffer(string: verifier))
        return digest.finalize().base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
