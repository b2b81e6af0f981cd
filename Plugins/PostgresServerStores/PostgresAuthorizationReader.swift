import PostgresNIO
public import PostgresStorage
public import WOPIServer
public import WOPIStorage

/// An ``WOPIServer/AuthorizationReader`` on PostgreSQL: one prepared statement, one round trip, for the tables of
/// ``PostgresStorage/PostgresStorage``, ``PostgresUserDirectory`` and ``PostgresShareStore``.
///
/// ```swift
/// configuration.authorizationReader = PostgresAuthorizationReader(database: pool)
/// ```
public struct PostgresAuthorizationReader: AuthorizationReader {
    /// The database the users, items and shares live in.
    public let database: PostgresPool

    /// A reader of the users, items and shares in `database`.
    public init(database: PostgresPool) {
        self.database = database
    }

    public func read(user userID: String, item id: ItemID) async throws -> AuthorizationRead {
        let logger = database.logger
        return try await database.withConnection("authorize user \(userID) for item \(id)") { connection in
            let rows = try await connection.execute(Statement(userID: userID, itemID: id.rawValue), logger: logger)
            for try await row in rows { return try Self.read(row) }
            throw StorageError(.io, "Authorizing user \(userID) for item \(id) read no row; retry.")
        }
    }

    /// The statement, prepared once on each pooled connection, so PostgreSQL parses and plans it once rather than on
    /// every request. One row: the user's columns (all `NULL` when there is no such user), the item's (all `NULL`
    /// when there is no such item), and the items and permissions of the user's shares on the item's path, read only
    /// when the user does not own the item (`NULL` when there are none).
    private struct Statement: PostgresPreparedStatement {
        static let name = "wopikit_authorization_read_v1"
        static let sql = """
            WITH RECURSIVE path(id, parent_id) AS (
              SELECT id, parent_id FROM items WHERE id = $2
              UNION ALL SELECT items.id, items.parent_id FROM items JOIN path ON items.id = path.parent_id)
            SELECT u.id, u.sign_in_name, u.display_name, u.password_hash, u.user_info,
                   \(PostgresStorageSQL.itemColumns), g.items, g.permissions
            FROM (SELECT $1::TEXT AS user_id, $2::TEXT AS item_id) asked
            LEFT JOIN users u ON u.id = asked.user_id
            LEFT JOIN items i ON i.id = asked.item_id
            LEFT JOIN file_versions v ON v.id = i.current_version_id
            LEFT JOIN LATERAL (
              SELECT array_agg(s.item_id) AS items, array_agg(s.permission::BIGINT) AS permissions
              FROM shares s JOIN path ON s.item_id = path.id
              WHERE s.grantee_id = asked.user_id AND i.owner_id <> asked.user_id) g ON TRUE
            """
        typealias Row = (
            String?, String?, String?, String?, String?,
            String?, String?, String?, String?, String?, Double?, Int64?, Int64?, ByteBuffer?, Double?,
            [String]?, [Int64]?
        )

        let userID: String
        let itemID: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(userID)
            bindings.append(itemID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    private static func read(_ row: Statement.Row) throws -> AuthorizationRead {
        let (userID, signInName, displayName, passwordHash, userInfo) = (row.0, row.1, row.2, row.3, row.4)
        var user: WOPIUser?
        if let userID, let signInName, let displayName {
            user = WOPIUser(
                id: userID, signInName: signInName, displayName: displayName, passwordHash: passwordHash,
                userInfo: userInfo)
        }
        var item: StorageItem?
        if let id = row.5, let owner = row.7, let kind = row.8, let name = row.9, let modifiedAt = row.10 {
            item = try PostgresStorageSQL.item(
                (id, row.6, owner, kind, name, modifiedAt, row.11, row.12, row.13, row.14))
        }
        let shares = zip(row.15 ?? [], row.16 ?? []).map { (item: $0, permission: Int($1)) }
        return AuthorizationRead(user: user, item: item, sharesOnPath: AuthorizationRead.widest(shares))
    }
}
