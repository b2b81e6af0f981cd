import Crypto
import Foundation
import HTTPTypes
import SQLiteServerStores
import SQLiteStorage
import WOPIServer
import WOPIStorage

/// A `WOPIHost` on the example host's default stores (SQLite) in a temporary directory, with user Ana and her root
/// container, authorizing as a `WOPIDeployment` on them does (the sharing policy, and the user, the item and the
/// shares read by one statement): the host the allocation tests measure.
struct SQLiteHostFixture {
    let directory: URL
    let storage: SQLiteStorage
    let signer: AccessTokenSigner
    let host: WOPIHost
    let root: ContainerMetadata

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wopikit-alloc-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("wopi.sqlite").path)
        storage = try SQLiteStorage(database: database)
        let users = try SQLiteUserDirectory(database: database)
        try await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        root = try await storage.rootContainer(forUser: "ana")
        signer = AccessTokenSigner(key: SymmetricKey(size: .bits256))
        let shares = try SQLiteShareStore(database: database)
        var configuration = WOPIHostConfiguration()
        configuration.authorizationReader = SQLiteAuthorizationReader(database: database)
        host = WOPIHost(
            storage: storage, locks: try SQLiteLockStore(database: database), users: users, tokens: signer,
            configuration: configuration, policy: SharingAccessPolicy(storage: storage, shares: shares))
    }

    /// Removes the directory.
    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The head of a GET of `path` (below the host's origin) with an hour's token of Ana's for `resource`.
    func get(_ path: String, for resource: AccessToken.Resource) -> HTTPRequest {
        let token = signer.mint(
            AccessToken(userID: "ana", resource: resource, expiresAt: Date().addingTimeInterval(3600)))
        return HTTPRequest(
            method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "\(path)?access_token=\(token)")
    }
}
