import Foundation
import Testing
import WOPIServer

@Suite("OAuth stores")
struct OAuthStoreTests {
    /// Each store under test, with a clean-up.
    static func makeStore(_ kind: String) -> (any OAuthStore, URL?) {
        switch kind {
        case "file":
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "oauth-store-\(UUID().uuidString)")
            return (FileOAuthStore(url: folder.appendingPathComponent("oauth.json")), folder)
        default:
            return (InMemoryOAuthStore(), nil)
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
        arguments: ["memory", "file"])
    func semantics(_ kind: String) async throws {
        let (store, folder) = Self.makeStore(kind)
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

    @Test("concurrent redemptions of one code: exactly one wins", arguments: ["memory", "file"])
    func concurrentRedemption(_ kind: String) async throws {
        let (store, folder) = Self.makeStore(kind)
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

    @Test("FileOAuthStore keeps clients, codes and refresh tokens across a restart, hashed, in a 0600 file")
    func persistence() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-persist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("oauth.json")
        // First server run: sign in, get tokens, and keep a second, unredeemed code.
        let (code, access, refresh) = try await LiveAuthServer.run(store: FileOAuthStore(url: file)) { live in
            let tokens = try await live.officeTokens()
            return (
                try await live.officeCode(), try #require(tokens["access_token"] as? String),
                try #require(tokens["refresh_token"] as? String)
            )
        }
        let contents = try String(contentsOf: file, encoding: .utf8)
        for secret in [code, access, refresh] {
            #expect(!contents.contains(secret))
        }
        #expect(!contents.contains(LiveAuthServer.officeSecret))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A new server on a reopened store: the clients, the code and the refresh token still work.
        try await LiveAuthServer.run(store: FileOAuthStore(url: file)) { live in
            let stillValid = try await live.isValid(access)
            #expect(stillValid)
            #expect(try await live.redeemOfficeCode(code).status == 200)
            #expect(try await live.refreshOffice(refresh).status == 200)
            #expect(try await live.server.store.allClients().map(\.id) == ["native", "office"])
        }
    }
}
