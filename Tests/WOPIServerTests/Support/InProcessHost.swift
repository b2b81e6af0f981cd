import Crypto
import Foundation
import HTTPTypes
import NIOCore
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// A `WOPIHost` answered in-process through `handle(_:)`, on in-memory stores and an injected clock: Ana, Bob and
/// Carol are its users, and every file is Ana's unless a policy says otherwise.
struct InProcessHost: Sendable {
    let host: WOPIHost
    let clock: TestClock
    var storage: any StorageBackend { host.storage }

    init(
        storage: any StorageBackend = InMemoryStorage(), configuration: WOPIHostConfiguration = WOPIHostConfiguration(),
        policy: any AccessPolicy = OwnerAccessPolicy(), locks: (any LockStore)? = nil, audit: (any AuditLog)? = nil,
        clock: TestClock = TestClock()
    ) {
        self.clock = clock
        let users = InMemoryUserDirectory([
            WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana Lima", passwordHash: nil),
            WOPIUser(id: "bob", signInName: "bob@example.com", displayName: "Bob", passwordHash: nil),
            WOPIUser(id: "carol", signInName: "carol@example.com", displayName: "Carol", passwordHash: nil),
        ])
        var configuration = configuration
        configuration.publicURL = configuration.publicURL ?? "http://wopi.test"
        host = WOPIHost(
            storage: storage, locks: locks ?? InMemoryLockStore(now: clock.dateSource), users: users,
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)), configuration: configuration,
            policy: policy, audit: audit, now: clock.dateSource)
    }

    /// A file of Ana's, in her root.
    func seed(_ name: String, _ content: String = "v1") async throws -> FileMetadata {
        let root = try await storage.rootContainer(forUser: "ana")
        return try await storage.createFile(
            named: name, in: root.id, content: ByteStream(chunks: [ByteBuffer(string: content)]), overwrite: false)
    }

    /// A token of `user` for `file`, valid for an hour of the host's clock.
    func token(_ file: ItemID, user: String = "ana", permission: Permission = .edit) -> String {
        host.tokens.mint(
            AccessToken(
                userID: user, resource: .file(file), expiresAt: clock.date.addingTimeInterval(3600),
                permission: permission))
    }

    /// Sends a request to a file endpoint (`suffix` such as `/contents`) with `user`'s token.
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

    /// A GET of `target` as it is (a URL the host handed out, below its public URL).
    static func get(_ target: String) -> WOPIRequest {
        WOPIRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "wopi.test", path: target))
    }

    /// The file's content as text.
    func content(_ file: ItemID) async throws -> String {
        String(buffer: try await storage.readFile(file).body.collect(upTo: 1 << 20))
    }
}

extension WOPIResponse {
    /// The body as JSON (empty when it is not a JSON object in memory).
    var json: [String: Any] {
        guard case .buffer(let buffer) = body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]) ?? [:]
    }
}
