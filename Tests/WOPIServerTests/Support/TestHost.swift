import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WOPIHTTPEdge
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport
import WOPITesting

/// The one WOPI host harness of `WOPIServerTests`: a `WOPIHost` on in-memory stores whose time is `clock`, with
/// users Ana, Bob, Carol and Dave (every file is Ana's unless a policy says otherwise).
///
/// Reach it in one of three ways, from the cheapest:
/// - `TestHost(…)` and ``send(_:_:_:user:_:body:)`` or `host.handle(_:)`: the core alone, no HTTP; its URLs start
///   with the configured public URL, `http://wopi.test` by default.
/// - ``run(storage:configuration:policy:locks:clock:overSocket:_:)``: the routes a deployment serves, in-process
///   (`WOPITestClient`: no socket); the `HarnessHTTP` calls (`get`, `post`, `send`) and ``fileURL(_:_:token:)``
///   go through them.
/// - the same with `overSocket: true`: on 127.0.0.1 with an OS-chosen port, for what must cross a real socket (an
///   editor's scenario end to end, HTTP framing).
struct TestHost: HarnessHTTP {
    let host: WOPIHost
    /// The host's clock: token and lock expiry follow it, and a test advances it by hand.
    let clock: TestClock
    /// The in-process client of ``run(storage:configuration:policy:locks:clock:overSocket:_:)``; `nil` over a
    /// socket and for a host used through `handle(_:)`.
    let client: WOPITestClient?
    /// Where requests go: the socket's URL, `WOPITestClient.origin`, or (used through `handle(_:)`) the public URL.
    let baseURL: String
    let user = "ana"

    var storage: any StorageBackend { host.storage }
    var wopiRoot: String { baseURL + "/wopi" }

    /// A host used through `handle(_:)`: no HTTP; its public URL defaults to `http://wopi.test`.
    init(
        storage: any StorageBackend = InMemoryStorage(), configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        policy: any AccessPolicy = OwnerAccessPolicy(), decorators: [any InfoDecorator] = [],
        changeGuards: [any ChangeGuard] = [], locks: (any LockStore)? = nil, audit: (any AuditLog)? = nil,
        clock: TestClock = TestClock()
    ) {
        var configuration = configuration
        configuration.publicURL = configuration.publicURL ?? "http://wopi.test"
        let host = Self.host(
            storage: storage, configuration: configuration, policy: policy, decorators: decorators,
            changeGuards: changeGuards, locks: locks, audit: audit, clock: clock)
        self.init(host: host, clock: clock, client: nil, baseURL: configuration.publicURL ?? "")
    }

    private init(host: WOPIHost, clock: TestClock, client: WOPITestClient?, baseURL: String) {
        self.host = host
        self.clock = clock
        self.client = client
        self.baseURL = baseURL
    }

    /// Runs `body` against a host reached over HTTP: in-process, or on 127.0.0.1 when `overSocket`; then shuts the
    /// server down.
    static func run<T: Sendable>(
        storage: any StorageBackend = InMemoryStorage(), configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        policy: any AccessPolicy = OwnerAccessPolicy(), decorators: [any InfoDecorator] = [],
        changeGuards: [any ChangeGuard] = [], locks: (any LockStore)? = nil, clock: TestClock = TestClock(),
        overSocket: Bool = false, _ body: @Sendable (TestHost) async throws -> T
    ) async throws -> T {
        let host = host(
            storage: storage, configuration: configuration, policy: policy, decorators: decorators,
            changeGuards: changeGuards, locks: locks, audit: nil, clock: clock)
        guard overSocket else {
            return try await WOPITestClient.run(host: host) { client in
                try await body(TestHost(host: host, clock: clock, client: client, baseURL: WOPITestClient.origin))
            }
        }
        let router = Router(context: WOPIRequestContext.self)
        WOPIRoutes.add(to: router, host: host)
        return try await LoopbackServer.run(router, logger: logger) { baseURL in
            try await body(TestHost(host: host, clock: clock, client: nil, baseURL: baseURL))
        }
    }

    private static var logger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }

    private static func host(
        storage: any StorageBackend, configuration: WOPIHostConfiguration, policy: any AccessPolicy,
        decorators: [any InfoDecorator], changeGuards: [any ChangeGuard], locks: (any LockStore)?,
        audit: (any AuditLog)?, clock: TestClock
    ) -> WOPIHost {
        let users = InMemoryUserDirectory([
            WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil),
            WOPIUser(id: "bob", signInName: "bob@example.com", displayName: "Bob", passwordHash: nil),
            WOPIUser(id: "carol", signInName: "carol@example.com", displayName: "Carol", passwordHash: nil),
            WOPIUser(id: "dave", signInName: "dave@example.com", displayName: "Dave", passwordHash: nil),
        ])
        return WOPIHost(
            storage: storage, locks: locks ?? InMemoryLockStore(now: clock.dateSource), users: users,
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)), configuration: configuration,
            policy: policy, decorators: decorators, changeGuards: changeGuards, audit: audit, logger: logger,
            now: clock.dateSource)
    }

    /// A token for `resource` acting for `user` (default Ana), valid for `lifetime` of the host's clock.
    func token(
        _ resource: AccessToken.Resource, user: String? = nil, lifetime: TimeInterval = 3600,
        permission: Permission = .edit
    ) -> String {
        host.tokens.mint(
            AccessToken(
                userID: user ?? self.user, resource: resource, expiresAt: clock.date.addingTimeInterval(lifetime),
                permission: permission))
    }

    /// A token of `user` for `file`, valid for an hour of the host's clock.
    func token(_ file: ItemID, user: String = "ana", permission: Permission = .edit) -> String {
        token(.file(file), user: user, permission: permission)
    }

    /// The URL of a file endpoint with a token.
    func fileURL(_ id: ItemID, _ suffix: String = "", token: String? = nil) -> String {
        "\(wopiRoot)/files/\(id)\(suffix)?access_token=\(token ?? self.token(.file(id)))"
    }

    /// The URL of a container endpoint with a token.
    func containerURL(_ id: ItemID, _ suffix: String = "", token: String? = nil) -> String {
        "\(wopiRoot)/containers/\(id)\(suffix)?access_token=\(token ?? self.token(.container(id)))"
    }

    /// Creates a file in Ana's root.
    func seedFile(_ name: String, _ content: String = "hello") async throws -> FileMetadata {
        let root = try await storage.rootContainer(forUser: user)
        return try await storage.createFile(
            named: name, in: root.id, content: ByteStream(chunks: [ByteBuffer(string: content)]), overwrite: false)
    }

    /// The file's content as text.
    func content(_ file: ItemID) async throws -> String {
        String(buffer: try await storage.readFile(file).body.collect(upTo: 1 << 20))
    }

    /// Sends a request to a file endpoint (`suffix` such as `/contents`) with `user`'s token through
    /// `host.handle(_:)`, with no HTTP.
    func send(
        _ method: HTTPRequest.Method, _ file: ItemID, _ suffix: String = "", user: String = "ana",
        _ headers: [String: String] = [:], body: String? = nil
    ) async -> WOPIResponse {
        var head = HTTPRequest(
            method: method, scheme: "http", authority: "wopi.test",
            path: "/wopi/files/\(file)\(suffix)?access_token=\(token(file, user: user))")
        for (name, value) in headers { head.headerFields[HTTPField.Name(name)!] = value }
        let stream = body.map { ByteStream(chunks: [ByteBuffer(string: $0)]) } ?? .empty
        return await host.handle(WOPIRequest(head: head, body: stream))
    }

    /// A GET of `target` as it is (a URL the host handed out, below its public URL), for `host.handle(_:)`.
    static func getRequest(_ target: String) -> WOPIRequest {
        WOPIRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "wopi.test", path: target))
    }
}

extension WOPIResponse {
    /// The body as JSON (empty when it is not a JSON object in memory).
    var json: [String: Any] {
        guard case .buffer(let buffer) = body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]) ?? [:]
    }
}
