import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIAuthorizationServer
import WOPIServer
import WOPITestSupport

@Suite("User directories")
struct UserDirectoryTests {
    /// Opens (or reopens) the directory of `kind` kept in `folder`.
    static func openDirectory(_ kind: String, in folder: URL) throws -> any UserDirectory {
        switch kind {
        case "sqlite":
            try SQLiteUserDirectory(database: SQLiteDatabase(path: folder.appendingPathComponent("wopi.sqlite").path))
        default:
            FileUserDirectory(url: folder.appendingPathComponent("users.json"))
        }
    }

    @Test("save, replace, user info, sorted listing; a second opener sees every change", arguments: ["file", "sqlite"])
    func sharedAcrossOpeners(_ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let first = try Self.openDirectory(kind, in: folder.url)
        let second = try Self.openDirectory(kind, in: folder.url)
        #expect(try await first.allUsers().isEmpty)
        try await first.save(WOPIUser(id: "zoe", signInName: "zoe@example.com", displayName: "Zoë", passwordHash: "h1"))
        try await first.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        #expect(try await second.allUsers().map(\.id) == ["ana", "zoe"])
        #expect(try await second.user("zoe")?.displayName == "Zoë")
        #expect(try await second.user("nobody") == nil)

        try await second.save(WOPIUser(id: "zoe", signInName: "z@example.com", displayName: "Zoe", passwordHash: "h2"))
        try await first.setUserInfo("{\"theme\":\"dark\"}", for: "zoe")
        let zoe = try #require(try await second.user("zoe"))
        #expect(zoe.signInName == "z@example.com" && zoe.passwordHash == "h2" && zoe.userInfo == "{\"theme\":\"dark\"}")
        #expect(try await first.allUsers().count == 2)
    }

    @Test("the SQLite users and OAuth tables join an existing storage file as named migrations")
    func migrationsOnAnExistingStorageFile() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.appending("wopi.sqlite").path
        let database = try SQLiteDatabase(path: path)
        _ = try SQLiteStorage(database: database)
        _ = try SQLiteLockStore(database: database)
        let before = try await database.appliedMigrations()
        #expect(!before.contains("users.v1"))
        try database.close()

        let reopened = try SQLiteDatabase(path: path)
        let users = try SQLiteUserDirectory(database: reopened)
        _ = try SQLiteOAuthStore(database: reopened)
        #expect(try await reopened.appliedMigrations() == before + ["users.v1", "oauth.v1"])
        try await users.save(WOPIUser(id: "ana", signInName: "ana", displayName: "Ana", passwordHash: nil))
        #expect(try await reopened.integrityCheck() == ["ok"])
        // Opening again runs nothing twice.
        _ = try SQLiteUserDirectory(database: reopened)
        #expect(try await reopened.appliedMigrations().count == before.count + 2)
    }
}
