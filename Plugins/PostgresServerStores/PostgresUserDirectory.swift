import Foundation
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIServer

/// A ``WOPIServer/UserDirectory`` in a ``PostgresStorage/PostgresPool``: every host of a deployment sees a user the
/// moment another adds it.
///
/// One row per user in the `users` table of ``schema`` (`StoreTables.users`, shared with SQLite): the WOPI user ID, sign-in and display
/// names, an indexed sign-in key (Swift's Unicode lower-casing of the sign-in name), a `PasswordHasher` hash (NULL
/// for users who cannot sign in) and the value of PutUserInfo.
public final class PostgresUserDirectory: UserDirectory {
    /// The table of the user directory.
    public static let schema: PostgresSchema = .init(StoreTables.users)

    /// The database the users live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the directory in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresUserDirectory {
        try await database.install(schema)
        return PostgresUserDirectory(database: database)
    }

    private static let columns = "id, sign_in_name, display_name, password_hash, user_info"

    public func user(_ id: String) async throws -> WOPIUser? {
        try await users("read the user \(id)", "SELECT \(unescaped: Self.columns) FROM users WHERE id = \(id)").first
    }

    /// Looks the user up through the `users_sign_in_key` index.
    public func user(signInName: String) async throws -> WOPIUser? {
        try await users(
            "find the user signing in",
            """
            SELECT \(unescaped: Self.columns) FROM users WHERE sign_in_key = \(WOPIUser.signInKey(signInName))
            ORDER BY id LIMIT 1
            """
        ).first
    }

    public func save(_ user: WOPIUser) async throws {
        try await database.execute(
            "save the user \(user.id)",
            """
            INSERT INTO users (id, sign_in_name, sign_in_key, display_name, password_hash, user_info)
            VALUES (\(user.id), \(user.signInName), \(WOPIUser.signInKey(user.signInName)), \(user.displayName),
                    \(user.passwordHash), \(user.userInfo))
            ON CONFLICT (id) DO UPDATE SET sign_in_name = excluded.sign_in_name, sign_in_key = excluded.sign_in_key,
              display_name = excluded.display_name, password_hash = excluded.password_hash,
              user_info = excluded.user_info
            """)
    }

    /// Sets PutUserInfo's value in one statement, so it never overwrites a concurrent change of the user.
    public func setUserInfo(_ info: String, for id: String) async throws {
        try await database.execute(
            "save the user info of \(id)", "UPDATE users SET user_info = \(info) WHERE id = \(id)")
    }

    public func allUsers() async throws -> [WOPIUser] {
        try await users("list the users", "SELECT \(unescaped: Self.columns) FROM users ORDER BY id")
    }

    private func users(_ action: String, _ query: PostgresQuery) async throws -> [WOPIUser] {
        let logger = database.logger
        return try await database.withConnection(action) { connection in
            var users: [WOPIUser] = []
            let rows = try await connection.query(query, logger: logger).decode(
                (String, String, String, String?, String?).self)
            for try await (id, signInName, displayName, passwordHash, userInfo) in rows {
                users.append(
                    WOPIUser(
                        id: id, signInName: signInName, displayName: displayName, passwordHash: passwordHash,
                        userInfo: userInfo))
            }
            return users
        }
    }
}
