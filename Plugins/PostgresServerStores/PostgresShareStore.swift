import Foundation
import PostgresNIO
public import PostgresStorage
import ServerStoreTables
public import WOPIServer
public import WOPIStorage

/// A ``WOPIServer/ShareStore`` in a ``PostgresStorage/PostgresPool``: a share granted through one host is seen by
/// every other at once.
///
/// One row per item and grantee in the `shares` table of ``schema`` (`StoreTables.shares`, shared with SQLite); granting again replaces
/// the row in one statement.
public final class PostgresShareStore: ShareStore {
    /// The table of the share store.
    public static let schema: PostgresSchema = .init(StoreTables.shares)

    /// The database the shares live in.
    public let database: PostgresPool

    private init(database: PostgresPool) { self.database = database }

    /// Opens the store in `database`, installing its table.
    public static func open(database: PostgresPool) async throws -> PostgresShareStore {
        try await database.install(schema)
        return PostgresShareStore(database: database)
    }

    public func grant(_ share: Share) async throws {
        try await database.execute(
            "share \(share.itemID) with \(share.granteeID)",
            """
            INSERT INTO shares (item_id, grantee_id, permission, granted_by, granted_at)
            VALUES (\(share.itemID.rawValue), \(share.granteeID), \(share.permission.rawValue), \(share.grantedBy),
                    \(share.grantedAt.timeIntervalSince1970))
            ON CONFLICT (item_id, grantee_id) DO UPDATE SET permission = excluded.permission,
              granted_by = excluded.granted_by, granted_at = excluded.granted_at
            """)
    }

    @discardableResult
    public func revoke(itemID: ItemID, granteeID: String) async throws -> Bool {
        try await database.execute(
            "unshare \(itemID) with \(granteeID)",
            "DELETE FROM shares WHERE item_id = \(itemID.rawValue) AND grantee_id = \(granteeID) RETURNING 1") > 0
    }

    public func shares(withGrantee userID: String) async throws -> [Share] {
        try await shares(
            "read the shares with \(userID)",
            "SELECT \(unescaped: Self.columns) FROM shares WHERE grantee_id = \(userID) ORDER BY granted_at, item_id")
    }

    public func shares(grantedBy userID: String) async throws -> [Share] {
        try await shares(
            "read the shares by \(userID)",
            "SELECT \(unescaped: Self.columns) FROM shares WHERE granted_by = \(userID) ORDER BY granted_at, item_id")
    }

    private static let columns = "item_id, grantee_id, permission, granted_by, granted_at"

    private func shares(_ action: String, _ query: PostgresQuery) async throws -> [Share] {
        let logger = database.logger
        return try await database.withConnection(action) { connection in
            var shares: [Share] = []
            let rows = try await connection.query(query, logger: logger).decode(
                (String, String, Int, String, Double).self)
            for try await (item, grantee, permission, grantedBy, grantedAt) in rows {
                guard let itemID = ItemID(rawValue: item), let permission = Permission(rawValue: permission) else {
                    continue
                }
                shares.append(
                    Share(
                        itemID: itemID, granteeID: grantee, permission: permission, grantedBy: grantedBy,
                        grantedAt: Date(timeIntervalSince1970: grantedAt)))
            }
            return shares
        }
    }
}
