import Foundation
import Hummingbird
import Logging
import Synchronization
import WOPIModels
import WOPIOAuthCore

@testable import WOPIOAuth

/// A small but real OAuth 2.0 authorization server on 127.0.0.1 with an OS-chosen port, for end-to-end tests.
///
/// - `GET /authorize`: checks the request (client, redirect URI, PKCE S256) and auto-approves with a 302 to the
///   redirect URI carrying `code`, `state` and `iss` (each can be tampered with through ``Behavior``).
/// - `POST /token` (and `/alt/token`, the `tk` endpoint): authenticates the client, checks PKCE, issues rotating
///   refresh tokens and detects reuse (a reused refresh token revokes its whole family).
/// - `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata.
/// - `POST /moved/token`: a 307 to `/token`, which a token client must not follow.
final class TestAuthorizationServer: Sendable {
    /// How the server behaves; tests change it to simulate attacks and odd servers.
    struct Behavior: Sendable {
        var clientID = "wopi-cli"
        var clientAuthentication = ClientAuthentication.none
        var accessTokenLifetime = 3600
        var expiresInAsString = false
        /// Replaces the `state` echoed in the redirect (a forged redirect).
        var stateOverride: String?
        /// Replaces the `iss` sent in the redirect (a mix-up).
        var issuerOverride: String?
        var sendsIssuer = true
        /// Redirects with this `error` instead of a code.
        var authorizeError: String?
        /// Adds Office's `tk` (pointing at `/alt/token`) and this `sc` to the redirect.
        var officeSessionContext: String?
        /// Delays refresh responses, so concurrent callers overlap with a refresh in flight.
        var refreshDelay: Duration = .zero
        var servesMetadata = true
        /// Names another issuer in the metadata (a mix-up).
        var metadataIssuerOverride: String?
    }

    private struct CodeGrant {
        var clientID: String
        var redirectURI: String
        var challenge: String
        var scope: String?
        var sessionContext: String?
    }

    private struct RefreshRecord {
        var family: Int
        var used = false
    }

    private struct State {
        var behavior: Behavior
        var codes: [String: CodeGrant] = [:]
        var refreshTokens: [String: RefreshRecord] = [:]
        var revokedFamilies: Set<Int> = []
        var nextFamily = 0
        var refreshRequests = 0
        var codeExchanges = 0
        var reuseDetected = 0
        var authorizeQueries: [[String: String]] = []
        var tokenRequestHeaders: [[String: String]] = []
    }

    let baseURL: URL
    private let state: Mutex<State>
    private let task: Task<Void, any Error>

    private init(baseURL: URL, behavior: Behavior, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.state = Mutex(State(behavior: behavior))
        self.task = task
    }

    /// The issuer identifier: the base URL.
    var issuer: String { baseURL.absoluteString }

    /// A client configuration for this server.
    func configuration(scopes: [String] = ["wopi"]) -> OAuthClientConfiguration {
        let behavior = state.withLock { $0.behavior }
        return OAuthClientConfiguration(
            clientID: behavior.clientID, clientAuthentication: behavior.clientAuthentication,
            authorizationEndpoint: baseURL.appendingPathComponent("authorize"),
            tokenEndpoint: baseURL.appendingPathComponent("token"), scopes: scopes, issuer: issuer)
    }

    func update(_ change: (inout Behavior) -> Void) { state.withLock { change(&$0.behavior) } }
    var refreshRequests: Int { state.withLock { $0.refreshRequests } }
    var codeExchanges: Int { state.withLock { $0.codeExchanges } }
    var reuseDetected: Int { state.withLock { $0.reuseDetected } }
    var authorizeQueries: [[String: String]] { state.withLock { $0.authorizeQueries } }
    var tokenRequestHeaders: [[String: String]] { state.withLock { $0.tokenRequestHeaders } }

    /// Issues a fresh token pair directly, as if a sign-in had happened.
    func mintTokens() -> (access: String, refresh: String) {
        state.withLock { state in
            let family = state.nextFamily
            state.nextFamily += 1
            let refresh = "rt-" + Base64URL.randomString(byteCount: 16)
            state.refreshTokens[refresh] = RefreshRecord(family: family)
            return ("at-" + Base64URL.randomString(byteCount: 16), refresh)
        }
    }

    /// Starts the server.
    static func start(_ behavior: Behavior = Behavior()) async throws -> TestAuthorizationServer {
        let ports = AsyncStream<Int>.makeStream()
        let box = ServerBox()
        let router = Router()
        router.get("authorize") { request, _ in try box.server().authorize(request) }
        router.post("token") { request, _ in try await box.server().token(request, alternate: false) }
        router.post("alt/token") { request, _ in try await box.server().token(request, alternate: true) }
        router.post("moved/token") { _, _ in Response(status: .temporaryRedirect, headers: [.location: "/token"]) }
        router.get(".well-known/oauth-authorization-server") { _, _ in try box.server().metadata() }
        var logger = Logger(label: "TestAuthorizationServer")
        logger.logLevel = .critical  // cancellation at stop() logs at error level
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                ports.continuation.yield(channel.localAddress?.port ?? 0)
                ports.continuation.finish()
            }, logger: logger)
        let task = Task { try await app.run() }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw OAuthError(.transport, "The test authorization server did not start.")
        }
        let server = TestAuthorizationServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, behavior: behavior, task: task)
        box.set(server)
        return server
    }

    /// Stops the server.
    func stop() async {
        task.cancel()
        _ = await task.result
    }

    // MARK: Endpoints

    private func authorize(_ request: Request) throws -> Response {
        let query = TestForm.decode(request.uri.query ?? "")
        let behavior = state.withLock { state in
            state.authorizeQueries.append(query)
            return state.behavior
        }
        guard query["client_id"] == behavior.clientID, query["response_type"] == "code",
            let redirectURI = query["redirect_uri"], redirectURI.hasPrefix("http://127.0.0.1:"),
            query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], challenge.count == 43
        else {
            return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "bad authorize request")))
        }
        var redirect: [(String, String)] = []
        if let error = behavior.authorizeError {
            redirect.append(("error", error))
            redirect.append(("error_description", "The user said no & closed <the> window"))
        } else {
            let code = "code-" + Base64URL.randomString(byteCount: 16)
            state.withLock {
                $0.codes[code] = CodeGrant(
                    clientID: behavior.clientID, redirectURI: redirectURI, challenge: challenge, scope: query["scope"],
                    sessionContext: behavior.officeSessionContext)
            }
            redirect.append(("code", code))
        }
        if let stateValue = behavior.stateOverride ?? query["state"] { redirect.append(("state", stateValue)) }
        if behavior.sendsIssuer { redirect.append(("iss", behavior.issuerOverride ?? issuer)) }
        if let context = behavior.officeSessionContext, behavior.authorizeError == nil {
            redirect.append(("tk", baseURL.appendingPathComponent("alt/token").absoluteString))
            redirect.append(("sc", context))
        }
        let location = redirectURI + "?" + TestForm.encode(redirect)
        return Response(status: .found, headers: [.location: location])
    }

    private func token(_ request: Request, alternate: Bool) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let form = TestForm.decode(String(buffer: body))
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let behavior = state.withLock { state in
            state.tokenRequestHeaders.append(headers)
            return state.behavior
        }
        if let failure = authenticate(form: form, headers: headers, behavior: behavior) { return failure }
        if alternate && headers["x-wopi-sessioncontext"] != behavior.officeSessionContext {
            return Self.error(400, "invalid_request", "X-WOPI-SessionContext is missing on the tk endpoint")
        }
        switch form["grant_type"] {
        case "authorization_code":
            return exchange(form: form, behavior: behavior)
        case "refresh_token":
            state.withLock { $0.refreshRequests += 1 }
            if behavior.refreshDelay > .zero { try await Task.sleep(for: behavior.refreshDelay) }
            return refresh(form: form, behavior: behavior)
        default:
            return Self.error(400, "unsupported_grant_type", "only authorization_code and refresh_token")
        }
    }

    private func authenticate(form: [String: String], headers: [String: String], behavior: Behavior) -> Response? {
        switch behavior.clientAuthentication {
        case .none:
            guard form["client_id"] == behavior.clientID, form["client_secret"] == nil,
                headers["authorization"] == nil
            else { return Self.error(401, "invalid_client", "public client expected") }
        case .clientSecretPost(let secret):
            guard form["client_id"] == behavior.clientID, form["client_secret"] == secret else {
                return Self.error(401, "invalid_client", "bad client_secret_post credentials")
            }
        case .clientSecretBasic(let secret):
            let expected = Data(
                "\(TestForm.escape(behavior.clientID)):\(TestForm.escape(secret))".utf8
            ).base64EncodedString()
            guard headers["authorization"] == "Basic \(expected)", form["client_secret"] == nil else {
                return Self.error(401, "invalid_client", "bad client_secret_basic credentials")
            }
        }
        return nil
    }

    private func exchange(form: [String: String], behavior: Behavior) -> Response {
        let grant: CodeGrant? = state.withLock { state in
            state.codeExchanges += 1
            return form["code"].flatMap { state.codes.removeValue(forKey: $0) }
        }
        guard let grant else { return Self.error(400, "invalid_grant", "unknown or used code") }
        guard form["redirect_uri"] == grant.redirectURI else {
            return Self.error(400, "invalid_grant", "redirect_uri differs")
        }
        guard let verifier = form["code_verifier"], PKCE.isValidVerifier(verifier),
            PKCE.challenge(for: verifier) == grant.challenge
        else { return Self.error(400, "invalid_grant", "PKCE verification failed") }
        let (access, refresh) = mintTokens()
        return tokenResponse(access: access, refresh: refresh, scope: grant.scope, behavior: behavior)
    }

    private func refresh(form: [String: String], behavior: Behavior) -> Response {
        enum Outcome {
            case issued(String, String)
            case rejected(String)
        }
        let outcome: Outcome = state.withLock { state in
            guard let token = form["refresh_token"], let record = state.refreshTokens[token] else {
                return .rejected("unknown refresh token")
            }
            if state.revokedFamilies.contains(record.family) { return .rejected("refresh token revoked") }
            if record.used {
                state.reuseDetected += 1
                state.revokedFamilies.insert(record.family)
                return .rejected("refresh token reused; grant revoked")
            }
            state.refreshTokens[token]?.used = true
            let refresh = "rt-" + Base64URL.randomString(byteCount: 16)
            state.refreshTokens[refresh] = RefreshRecord(family: record.family)
            return .issued("at-" + Base64URL.randomString(byteCount: 16), refresh)
        }
        switch outcome {
        case .issued(let access, let refresh):
            return tokenResponse(access: access, refresh: refresh, scope: nil, behavior: behavior)
        case .rejected(let reason):
            return Self.error(400, "invalid_grant", reason)
        }
    }

    private func metadata() throws -> Response {
        let behavior = state.withLock { $0.behavior }
        guard behavior.servesMetadata else { return Response(status: .notFound) }
        let metadata = AuthorizationServerMetadata(
            issuer: behavior.metadataIssuerOverride ?? issuer,
            authorizationEndpoint: baseURL.appendingPathComponent("authorize"),
            tokenEndpoint: baseURL.appendingPathComponent("token"), responseTypesSupported: ["code"],
            grantTypesSupported: ["authorization_code", "refresh_token"], codeChallengeMethodsSupported: ["S256"],
            tokenEndpointAuthMethodsSupported: ["none", "client_secret_basic", "client_secret_post"],
            authorizationResponseIssParameterSupported: true)
        return Self.json(200, try JSONEncoder().encode(metadata))
    }

    private func tokenResponse(access: String, refresh: String, scope: String?, behavior: Behavior) -> Response {
        var object: [String: Any] = [
            "access_token": access, "token_type": "bearer", "refresh_token": refresh,
            "expires_in": behavior.expiresInAsString
                ? "\(behavior.accessTokenLifetime)" as Any : behavior.accessTokenLifetime as Any,
        ]
        if let scope { object["scope"] = scope }
        let data = try! JSONSerialization.data(withJSONObject: object)
        var response = Self.json(200, data)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private static func error(_ status: Int, _ code: String, _ description: String) -> Response {
        let data = try! JSONSerialization.data(withJSONObject: ["error": code, "error_description": description])
        return json(status, data)
    }

    private static func json(_ status: Int, _ data: Data) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json;charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Lets route closures reach the server object, which exists only once the port is known.
private final class ServerBox: Sendable {
    private let value = Mutex<TestAuthorizationServer?>(nil)
    func set(_ server: TestAuthorizationServer) { value.withLock { $0 = server } }
    func server() throws -> TestAuthorizationServer {
        guard let server = value.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
        return server
    }
}

/// Decodes form and query strings for the test server, independently of the module's encoder.
enum TestForm {
    static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(parts[0])
            result[name] = parts.count > 1 ? unescape(parts[1]) : ""
        }
        return result
    }

    private static func unescape(_ part: Substring) -> String {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
    }
}

extension TestAuthorizationServer {
    /// Runs `body` against a fresh server and stops it afterwards, also when `body` throws.
    static func with(
        _ behavior: Behavior = Behavior(), _ body: (TestAuthorizationServer) async throws -> Void
    ) async throws {
        let server = try await start(behavior)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
