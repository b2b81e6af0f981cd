import Crypto
import Foundation
import Logging
import NIOCore
import WOPIServer
import WOPIStorage
import WOPITestSupport
import WOPITesting

/// A WOPI host driven in-process (`WOPITestClient`: no socket) for the duration of a test body. Its requests go
/// through the same routes a deployment serves; the HTTP adapter's own socket tests are `WOPIServerHummingbird`'s.
struct TestHost: HarnessHTTP {
    let host: WOPIHost
    let client: WOPITestClient?
    let baseURL = WOPITestClient.origin
    let user = "ana"

    var wopiRoot: String { baseURL + "/wopi" }

    /// Runs `body` against a host over `storage`, then shuts the server down.
    static func run<T: Sendable>(
        storage: any StorageBackend = InMemoryStorage(), configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        policy: any AccessPolicy = OwnerAccessPolicy(), _ body: @Sendable (TestHost) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        for name in ["bob", "carol", "dave"] {
            await users.save(
                WOPIUser(id: name, signInName: "\(name)@example.com", displayName: name.capitalized, passwordHash: nil))
        }
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(), users: users,
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)), configuration: configuration, policy: policy,
            logger: logger)
        return try await WOPITestClient.run(host: host) { client in
            try await body(TestHost(host: host, client: client))
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
