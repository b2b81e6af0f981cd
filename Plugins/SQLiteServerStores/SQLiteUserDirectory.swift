import Foundation
import GRDB
public import SQLiteStorage
import ServerStoreTables
public import WOPIServer

/// A ``WOPIServer/UserDirectory`` in a ``SQLiteStorage/SQLiteDatabase``, so the users live in the same file as
/// the files, locks and OAuth records of a small deployment, and every process sharing the file sees a user the
/// moment another adds it.
///
/// One row per user in the `users` table of the migrations in ``schema`` (`StoreTables.users`, shared with PostgreSQL): the WOPI user ID,
/// sign-in and display names, a `PasswordHasher` hash (NULL for users who cannot sign in), the value of
/// PutUserInfo, and (`users.v2`) an indexed sign-in key so sign-in finds a user without a scan.
public final class SQLiteUserDirectory: UserDirectory {
    /// The tables of the user directory.
    public static let schema: SQLiteSchema = {
        var schema = SQLiteSchema(StoreTables.users)
        // users.v2, SQLite's only: the indexed sign-in key that PostgreSQL's users.v1 already has.
        schema.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN sign_in_key TEXT")
            // The key is Swift's Unicode lower-casing, which SQLite's lower() (ASCII only) cannot compute.
            for row in try Row.fetchAll(db, sql: "SELECT id, sign_in_name FROM users") {
                let name: String = row["sign_in_name"]
                try db.execute(
                    sql: "UPDATE users SET sign_in_key = ? WHERE id = ?",
                    arguments: [WOPIUser.signInKey(name), row["id"] as String])
            }
            try db.execute(sql: "CREATE INDEX users_sign_in_key ON users (sign_in_key)")
        }
        return schema
    }()

    /// The database the users live in.
    public let database: SQLiteDatabase

    /// Opens the directory in `database`, installing or upgrading its table.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
    }

    public func user(_ id: String) async throws -> WOPIUser? {
        // Every request looks its user up: the row is read from SQLite's buffer by position, without a copy (so
        // while the cursor, which resets the statement when it goes, is alive).
        try await database.readStatement("read the user \(id)") { db in
            let cursor = try Row.fetchCursor(
                db.cachedStatement(
                    sql: "SELECT id, sign_in_name, display_name, password_hash, user_info FROM users WHERE id = ?"),
                arguments: [id])
            guard let row = try cursor.next() else { return nil }
            return withExtendedLifetime(cursor) {
                WOPIUser(id: row[0], signInName: row[1], displayName: row[2], passwordHash: row[3], userInfo: row[4])
            }
        }
    }

    /// Looks the user up through the `users_sign_in_key` index.
    public func user(signInName: String) async throws -> WOPIUser? {
        try await database.read("find the user signing in") { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM users WHERE sign_in_key = ? ORDER BY id LIMIT 1",
                arguments: [WOPIUser.signInKey(signInName)]
            ).map(Self.user)
        }
    }

    public func save(_ user: WOPIUser) async throws {
        try await database.write("save the user \(user.id)") { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, sign_in_name, sign_in_key, display_name, password_hash, user_info)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET sign_in_name = excluded.sign_in_name,
                      sign_in_key = excluded.sign_in_key, display_name = excluded.display_name,
                      password_hash = excluded.password_hash, user_info = excluded.user_info
                    """,
                arguments: [
                    user.id, user.signInName, WOPIUser.signInKey(user.signInName), user.displayName,
                    user.passwordHash, user.userInfo,
                ])
        }
    }

    /// Sets PutUserInfo's value in one statement, so it never overwrites a concurrent change of the user.
    public func setUserInfo(_ info: String, for id: String) async throws {
        try await database.write("save the user info of \(id)") { db in
            try db.execute(sql: "UPDATE users SET user_info = ? WHERE id = ?", arguments: [info, id])
        }
    }

    public func allUsers() async throws -> [WOPIUser] {
        try await database.read("list the users") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY id").map(Self.user)
        }
    }

    private static func user(_ row: Row) -> WOPIUser {
        WOPIUser(
            id: row["id"], signInName: row["sign_in_name"], displayName: row["display_name"],
            passwordHash: row["password_hash"], userInfo: row["user_info"])
    }
}
