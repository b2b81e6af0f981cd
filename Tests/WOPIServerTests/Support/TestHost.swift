import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport
import WOPITesting

/// A WOPI host for the duration of a test body, driven in-process (`WOPITestClient`: no socket) through the same
/// routes a deployment serves, or on 127.0.0.1 with an OS-chosen port when `overSocket` (for what must cross a real
/// socket: an editor's scenario end to end, HTTP framing).
struct TestHost: HarnessHTTP {
    let host: WOPIHost
    let client: WOPITestClient?
    let baseURL: String
    let user = "ana"

    var wopiRoot: String { baseURL + "/wopi" }

    /// Runs `body` against a host over `storage` (on `clock`, when given: lock expiry and token checks), then shuts
    /// the server down.
    static func run<T: Sendable>(
        storage: any StorageBackend = InMemoryStorage(), configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        policy: any AccessPolicy = OwnerAccessPolicy(), clock: TestClock? = nil, overSocket: Bool = false,
        _ body: @Sendable (TestHost) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        for name in ["bob", "carol", "dave"] {
            await users.save(
                WOPIUser(id: name, signInName: "\(name)@example.com", displayName: name.capitalized, passwordHash: nil))
        }
        let now: @Sendable () -> Date
        if let clock { now = clock.dateSource } else { now = { Foundation.Date() } }
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(now: now), users: users,
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)), configuration: configuration, policy: policy,
            logger: logger, now: now)
        guard overSocket else {
            return try await WOPITestClient.run(host: host) { client in
                try await body(TestHost(host: host, client: client, baseURL: WOPITestClient.origin))
            }
        }
        let router = Router(context: WOPIRequestContext.self)
        WOPIRoutes.add(to: router, host: host)
        return try await LoopbackServer.run(router, logger: logger) { baseURL in
            try await body(TestHost(host: host, client: nil, baseURL: baseURL))
        }
    }

    /// A token for `resource` acting for `user` (default Ana).
    func token(
        _ resource: AccessToken.Resource, user: String? = nil, lifetime: TimeInterval = 3600,
        permission: Permission = .edit
    ) -> String {
        host.tokens.mint(
            AccessToken(
                userID: user ?? self.user, resource: resource, expiresAt: Date().addingTimeInterval(lifetime),
                permission: permission))
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
        let root = try await host.storage.rootContainer(forUser: user)
        return try await host.storage.createFile(
            named: name, in: root.id, content: ByteStream(chunks: [ByteBuffer(string: content)]), overwrite: false)
    }
}
