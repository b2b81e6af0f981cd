import GRDB
public import SQLiteStorage
public import WOPIServer
public import WOPIStorage

/// The `AuthorizationReader` of `WOPIServer` on SQLite, for the tables of `SQLiteStorage`, ``SQLiteUserDirectory``
/// and ``SQLiteShareStore`` in one database file. One statement is one read transaction where the request runs:
/// one hop into GRDB's queue and one set of SQLite's file locks, where reading the user, then the item (and, for a
/// grantee, the shares and each container up to the shared one) took a transaction each.
public struct SQLiteAuthorizationReader: AuthorizationReader {
    /// The database the users, items and shares live in.
    public let database: SQLiteDatabase

    /// A reader of the users, items and shares in `database`.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func read(user userID: String, item id: ItemID) async throws -> AuthorizationRead {
        try await database.readStatement("authorize user \(userID) for item \(id)") { db in
            let read = try StatementRow.first(
                db.cachedStatement(sql: Self.sql), arguments: [userID, id.rawValue], Self.read)
            guard let read else {
                throw StorageError(.io, "Authorizing user \(userID) for item \(id) read no row; retry.")
            }
            return read
        }
    }

    /// One row: the user's columns (all `NULL` when there is no such user), the item's (`SQLiteStorageSQL`'s
    /// `itemColumns`, all `NULL` when there is no such item), and the user's shares on the item's path as lines of
    /// `permission:item`, read only when the user does not own the item (`NULL` when there are none): `CASE` walks
    /// up the path only then.
    private static let sql = """
        SELECT u.id, u.sign_in_name, u.display_name, u.password_hash, u.user_info, \(SQLiteStorageSQL.itemColumns),
               CASE WHEN i.owner_id <> ?1 THEN (
                 WITH RECURSIVE path(id, parent_id) AS (
                   SELECT id, parent_id FROM items WHERE id = ?2
                   UNION ALL SELECT items.id, items.parent_id FROM items JOIN path ON items.id = path.parent_id)
                 SELECT group_concat(s.permission || ':' || s.item_id, char(10))
                 FROM shares s JOIN path ON s.item_id = path.id WHERE s.grantee_id = ?1)
               END
        FROM (SELECT ?1 AS user_id, ?2 AS item_id) asked
        LEFT JOIN users u ON u.id = asked.user_id
        LEFT JOIN items i ON i.id = asked.item_id
        LEFT JOIN file_versions v ON v.id = i.current_version_id
        """
    /// Where the item's columns start, and the shares' column.
    private static let itemColumn = 5
    private static let sharesColumn = itemColumn + SQLiteStorageSQL.itemColumnCount

    private static func read(_ row: StatementRow) throws -> AuthorizationRead {
        var user: WOPIUser?
        if let id: String = row.optional(0) {
            user = WOPIUser(
                id: id, signInName: try row.required(1), displayName: try row.required(2),
                passwordHash: row.optional(3), userInfo: row.optional(4))
        }
        var item: StorageItem?
        if !row.isNull(itemColumn) {
            item = try SQLiteStorageSQL.item(row, startingAt: itemColumn)
        }
        let lines: String? = row.optional(sharesColumn)
        let shares = (lines?.split(separator: "\n") ?? []).compactMap { line -> (item: String, permission: Int)? in
            guard let colon = line.firstIndex(of: ":"), let value = Int(line[..<colon]) else { return nil }
            return (item: String(line[line.index(after: colon)...]), permission: value)
        }
        return AuthorizationRead(user: user, item: item, sharesOnPath: AuthorizationRead.widest(shares))
    }
}
