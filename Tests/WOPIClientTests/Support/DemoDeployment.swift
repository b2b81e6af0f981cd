import Crypto
import Foundation
import NIOCore
import Synchronization
import WOPIAuthorizationServer
import WOPIClient
import WOPIDeployment
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITesting

/// A `WOPIDeployment` on in-memory stores, seeded as `wopi-host serve --demo` seeds a new data directory (user
/// `demo`: Welcome.docx, Budget.xlsx, Notes.txt and Documents/ in their root), which a `WOPIClient` reaches
/// in-process through a `WOPITestTransport`: no socket, no process, no disk (each test gets its own in
/// milliseconds; the stores on disk have their own suites).
struct DemoDeployment: Sendable {
    static let user = "demo"
    static let files = ["Welcome.docx", "Budget.xlsx", "Notes.txt"]

    let deployment: WOPIDeployment
    let transport: WOPITestTransport

    /// Runs `body` against a fresh seeded deployment.
    static func run<T: Sendable>(_ body: @Sendable (DemoDeployment) async throws -> T) async throws -> T {
        let stores = DeploymentStores(
            storage: InMemoryStorage(), locks: InMemoryLockStore(), users: InMemoryUserDirectory(),
            shares: InMemoryShareStore(), activities: InMemoryActivityLog(), oauth: InMemoryOAuthStore(),
            throttle: InMemorySignInThrottleStore(), keys: RandomSigningKeys())
        try await seed(stores)
        let deployment = try await WOPIDeployment(
            stores: stores, configuration: WOPIDeployment.Configuration(), logger: .quiet)
        return try await WOPITestClient.run(router: deployment.router()) { client in
            try await body(DemoDeployment(deployment: deployment, transport: client.transport))
        }
    }

    /// The demo user and files, as `wopi-host serve --demo` adds them.
    private static func seed(_ stores: DeploymentStores) async throws {
        try await stores.users.save(
            WOPIUser(id: user, signInName: "demo@example.com", displayName: "Demo User", passwordHash: nil))
        let root = try await stores.storage.rootContainer(forUser: user)
        for name in files {
            _ = try await stores.storage.createFile(
                named: name, in: root.id, content: ByteStream(buffer: ByteBuffer(string: "sample \(name)")),
                overwrite: false)
        }
        _ = try await stores.storage.createContainer(named: "Documents", in: root.id)
    }

    /// A file of `user`'s root with its WOPISrc and a token, as `wopi-host token` prints them.
    func token(user: String = DemoDeployment.user, file: String = "Welcome.docx", lifetime: TimeInterval = 3600)
        async throws -> WOPIResource
    {
        let storage = deployment.host.storage
        let item = try await storage.item(atPath: file, under: try await storage.rootContainer(forUser: user).id)
        let expiry = Date().addingTimeInterval(lifetime)
        let token = deployment.host.tokens.mint(AccessToken(userID: user, resource: .file(item.id), expiresAt: expiry))
        let wopiSrc = WOPIURLs(publicURL: WOPITestClient.origin, configuration: WOPIHostConfiguration()).file(item.id)
        return try WOPIResource(endpoint: URL(string: wopiSrc)!, accessToken: token, expiry: expiry)
    }

    /// Runs `body` with a client that reaches the deployment in-process.
    func withClient<T: Sendable>(_ body: @Sendable (WOPIClient) async throws -> T) async throws -> T {
        try await body(WOPIClient(transport: transport, logger: .quiet))
    }
}

/// Signing keys made at random on first use and kept in memory, for a deployment that lives as long as a test.
final class RandomSigningKeys: SigningKeyStore {
    private let keys = Mutex<[String: SymmetricKey]>([:])

    func key(named name: String) async throws -> SymmetricKey {
        keys.withLock { keys in
            if let key = keys[name] { return key }
            let key = SymmetricKey(size: .bits256)
            keys[name] = key
            return key
        }
    }
}
