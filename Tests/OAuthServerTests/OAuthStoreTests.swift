import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIAuthorizationServer
import WOPIServer
import WOPITestSupport

@Suite("OAuth stores")
struct OAuthStoreTests {
    /// Each store under test, with the folder to delete afterwards.
    static func makeStore(_ kind: String) throws -> (any OAuthStore, URL?) {
        guard kind != "memory" else { return (InMemoryOAuthStore(), nil) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try openStore(kind, in: folder), folder)
    }

    /// Opens (or reopens) the persistent store of `kind` kept in `folder`.
    static func openStore(_ kind: String, in folder: URL) throws -> any OAuthStore {
        switch kind {
        case "sqlite":
            try SQLiteOAuthStore(database: SQLiteDatabase(path: folder.appendingPathComponent("oauth.sqlite").path))
        default:
            FileOAuthStore(url: folder.appendingPathComponent("oauth.json"))
        }
    }

    static func code(_ raw: String, family: String, expiresIn: TimeInterval = 600) -> OAuthCodeRecord {
        OAuthCodeRecord(
            hash: OAuthTokenHash.hash(raw), clientID: "c", userID: "ana", scope: "wopi",
            redirectURI: "https://localhost",
            codeChallenge: nil, familyID: family, expiresAt: Date().addingTimeInterval(expiresIn))
    }

    static func token(_ raw: String, _ kind: OAuthTokenRecord.Kind, family: String, expiresIn: TimeInterval = 600)
        -> OAuthTokenRecord
    {
        OAuthTokenRecord(
            hash: OAuthTokenHash.hash(raw), kind: kind, clientID: "c", userID: "ana", scope: "wopi", familyID: family,
            expiresAt: Date().addingTimeInterval(expiresIn))
    }

    @Test(
        "codes and refresh tokens are single use; families revoke together; expired records are dropped",
        arguments: ["memory", "file", "sqlite"])
    func semantics(_ kind: String) async throws {
        let (store, folder) = try Self.makeStore(kind)
        defer { folder.map { try? FileManager.default.removeItem(at: $0) } }

        try await store.saveCode(Self.code("code-1", family: "f1"))
        #expect(try await store.redeemCode(OAuthTokenHash.hash("nope")) == nil)
        guard case .first(let record)? = try await store.redeemCode(OAuthTokenHash.hash("code-1")) else {
            Issue.record("first redemption")
            return
        }
        #expect(record.familyID == "f1" && !record.isRedeemed)
        guard case .replay? = try await store.redeemCode(OAuthTokenHash.hash("code-1")) else {
            Issue.record("replay not detected")
            return
        }

        try await store.saveToken(Self.token("access-1", .access, family: "f1"))
        try await store.saveToken(Self.token("refresh-1", .refresh, family: "f1"))
        try await store.saveToken(Self.token("access-2", .access, family: "f2"))
        #expect(try await store.redeemRefreshToken(OAuthTokenHash.hash("access-1")) == nil)
        guard case .first? = try await store.redeemRefreshToken(OAuthTokenHash.hash("refresh-1")) else {
            Issue.record("first refresh")
            return
        }
        guard case .replay? = try await store.redeemRefreshToken(OAuthTokenHash.hash("refresh-1")) else {
            Issue.record("refresh replay not detected")
            return
        }
        try await store.revokeFamily("f1")
        #expect(try await store.token(OAuthTokenHash.hash("access-1")) == nil)
        #expect(try await store.token(OAuthTokenHash.hash("refresh-1")) == nil)
        #expect(try await store.token(OAuthTokenHash.hash("access-2")) != nil)
        try await store.revokeToken(OAuthTokenHash.hash("access-2"))
        #expect(try await store.token(OAuthTokenHash.hash("access-2")) == nil)

        try await store.saveToken(Self.token("old", .access, family: "f3", expiresIn: -1))
        try await store.saveToken(Self.token("new", .access, family: "f3"))
        #expect(try await store.token(OAuthTokenHash.hash("old")) == nil)
        #expect(try await store.token(OAuthTokenHash.hash("new")) != nil)
    }

    @Test("concurrent redemptions of one code: exactly one wins", arguments: ["memory", "file", "sqlite"])
    func concurrentRedemption(_ kind: String) async throws {
        let (store, folder) = try Self.makeStore(kind)
        defer { folder.map { try? FileManager.default.removeItem(at: $0) } }
        try await store.saveCode(Self.code("race", family: "f"))
        let firsts = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    if case .first? = try await store.redeemCode(OAuthTokenHash.hash("race")) { return true }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(firsts == 1)
    }

    @Test(
        "the file and SQLite stores keep clients, codes and refresh tokens across a restart, hashed, in a 0600 file",
        arguments: ["file", "sqlite"])
    func persistence(_ kind: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-persist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // First server run: sign in, get tokens, and keep a second, unredeemed code.
        let (code, access, refresh) = try await TestAuthServer.run(store: try Self.openStore(kind, in: folder)) {
            oauth in
            let tokens = try await oauth.officeTokens()
            return (
                try await oauth.officeCode(), try #require(tokens["access_token"] as? String),
                try #require(tokens["refresh_token"] as? String)
            )
        }
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        where !file.lastPathComponent.hasSuffix(".lock") {
            let contents = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            for secret in [code, access, refresh, TestAuthServer.officeSecret] {
                #expect(!contents.contains(secret), "\(file.lastPathComponent) holds a secret")
            }
        }
        if kind == "file" {
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent("oauth.json").path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        // A new server on a reopened store: the clients, the code and the refresh token still work.
        try await TestAuthServer.run(store: try Self.openStore(kind, in: folder)) { oauth in
            let stillValid = try await oauth.isValid(access)
            #expect(stillValid)
            #expect(try await oauth.redeemOfficeCode(code).status == 200)
            #expect(try await oauth.refreshOffice(refresh).status == 200)
            #expect(try await oauth.server.store.allClients().map(\.id) == ["native", "office"])
        }
    }

    @Test("two SQLite connections on one file racing to redeem one code and one refresh token: one wins each")
    func sqliteCrossConnectionRedemption() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = [try Self.openStore("sqlite", in: folder), try Self.openStore("sqlite", in: folder)]
        try await stores[0].saveCode(Self.code("shared", family: "f"))
        try await stores[1].saveToken(Self.token("refresh", .refresh, family: "f"))
        let (codes, tokens) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<16 {
                let store = stores[index % 2]
                group.addTask {
                    let code = try await store.redeemCode(OAuthTokenHash.hash("shared"))
                    let token = try await store.redeemRefreshToken(OAuthTokenHash.hash("refresh"))
                    return (
                        code.map { if case .first = $0 { 1 } else { 0 } } ?? 0,
                        token.map { if case .first = $0 { 1 } else { 0 } } ?? 0
                    )
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(codes == 1 && tokens == 1)
        // A replay from the other connection revokes the family there too.
        try await stores[1].revokeFamily("f")
        #expect(try await stores[0].token(OAuthTokenHash.hash("refresh")) == nil)
        guard case .replay? = try await stores[0].redeemCode(OAuthTokenHash.hash("shared")) else {
            Issue.record("a revoked family's code must read as used")
            return
        }
    }
}
