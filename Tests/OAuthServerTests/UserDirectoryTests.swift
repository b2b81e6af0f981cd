import Foundation
import GRDB
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
        #expect(try await reopened.appliedMigrations() == before + ["users.v1", "users.v2", "oauth.v1", "oauth.v2"])
        try await users.save(WOPIUser(id: "ana", signInName: "ana", displayName: "Ana", passwordHash: nil))
        #expect(try await reopened.integrityCheck() == ["ok"])
        // Opening again runs nothing twice.
        _ = try SQLiteUserDirectory(database: reopened)
        #expect(try await reopened.appliedMigrations().count == before.count + 4)
    }

    @Test("users.v2 indexes the sign-in names of the users a users.v1 file already holds")
    func signInKeysOfExistingUsers() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.appending("wopi.sqlite").path
        // A file as the first release left it: the v1 table with two users, and its migration recorded.
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (id TEXT PRIMARY KEY NOT NULL, sign_in_name TEXT NOT NULL,
                      display_name TEXT NOT NULL, password_hash TEXT, user_info TEXT);
                    INSERT INTO users VALUES ('ana', 'Ana@Example.com', 'Ana', NULL, NULL);
                    INSERT INTO users VALUES ('elo', 'ÉLODIE', 'Élodie', 'h', '{}');
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('users.v1');
                    """)
        }
        try old.close()
        let users = try SQLiteUserDirectory(database: SQLiteDatabase(path: path))
        #expect(try await users.user(signInName: "ana@example.COM")?.id == "ana")
        #expect(try await users.user(signInName: "élodie")?.userInfo == "{}")
        let plan = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT * FROM users WHERE sign_in_key = ? ORDER BY id LIMIT 1",
                arguments: ["x"]
            ).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("users_sign_in_key") })
    }
}
