import Crypto
import Foundation
import HTTPTypes
import NIOCore
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage

/// A host called in-process (`handle`) with one file of Ana's and a token for it, for tests that build request heads
/// themselves (metrics, tracing).
struct SingleFileHost {
    let host: WOPIHost
    let file: FileMetadata
    let token: String

    /// A host over in-memory storage and `locks`, with `configuration`.
    static func make(
        locks: any LockStore = InMemoryLockStore(), configuration: WOPIHostConfiguration = WOPIHostConfiguration()
    ) async throws -> SingleFileHost {
        let storage = InMemoryStorage()
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        let root = await storage.rootContainer(forUser: "ana")
        let file = try await storage.createFile(
            named: "a.docx", in: root.id, content: ByteStream(chunks: [ByteBuffer(string: "x")]), overwrite: false)
        let signer = AccessTokenSigner(key: SymmetricKey(size: .bits256))
        let host = WOPIHost(
            storage: storage, locks: locks, users: users, tokens: signer, configuration: configuration)
        let token = signer.mint(
            AccessToken(userID: "ana", resource: .file(file.id), expiresAt: Date().addingTimeInterval(3600)))
        return SingleFileHost(host: host, file: file, token: token)
    }

    /// The request head of `method` on the file's endpoint (`suffix`: `/contents`, …), with the token.
    func head(_ method: HTTPRequest.Method, _ suffix: String = "") -> HTTPRequest {
        HTTPRequest(
            method: method, scheme: "http", authority: "h",
            path: "/wopi/files/\(file.id)\(suffix)?access_token=\(token)")
    }
}
