import Foundation
import GRDB
public import SQLiteStorage
import ServerStoreTables
public import WOPIServer
public import WOPIStorage

/// A ``WOPIServer/ShareStore`` in a ``SQLiteStorage/SQLiteDatabase``, next to the files, users and OAuth records
/// of a small deployment; every process sharing the file sees a share (or its removal) at once.
///
/// One row per item and grantee in the `shares` table of the migrations in ``schema``, indexed by grantee (every
/// request of a grantee reads their shares) and by grantor.
public final class SQLiteShareStore: ShareStore {
    /// The tables of the share store.
    public static let schema: SQLiteSchema = .init(StoreTables.shares)

    /// The database the shares live in.
    public let database: SQLiteDatabase

    /// Opens the store in `database`, installing or upgrading its table.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try database.install(Self.schema)
    }

    public func grant(_ share: Share) async throws {
        try await database.write("share \(share.itemID) with \(share.granteeID)") { db in
            try db.execute(
                sql: """
                    INSERT INTO shares (item_id, grantee_id, permission, granted_by, granted_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (item_id, grantee_id) DO UPDATE SET permission = excluded.permission,
                      granted_by = excluded.granted_by, granted_at = excluded.granted_at
                    """,
                arguments: [
                    share.itemID.rawValue, share.granteeID, share.permission.rawValue, share.grantedBy,
                    share.grantedAt.timeIntervalSince1970,
                ])
        }
    }

    @discardableResult
    public func revoke(itemID: ItemID, granteeID: String) async throws -> Bool {
        try await database.write("unshare \(itemID) with \(granteeID)") { db in
            try db.execute(
                sql: "DELETE FROM shares WHERE item_id = ? AND grantee_id = ?", arguments: [itemID.rawValue, granteeID])
            return db.changesCount > 0
        }
    }

    public func shares(withGrantee userID: String) async throws -> [Share] {
        try await database.readStatement("read the shares with \(userID)") { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM shares WHERE grantee_id = ? ORDER BY granted_at, item_id"),
                arguments: [userID]
            ).compactMap(Self.share)
        }
    }

    public func shares(grantedBy userID: String) async throws -> [Share] {
        try await database.read("read the shares by \(userID)") { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM shares WHERE granted_by = ? ORDER BY granted_at, item_id", arguments: [userID]
            ).compactMap(Self.share)
        }
    }

    /// A row as a share; `nil` for a row no version of this store writes (skipped rather than failing every read).
    private static func share(_ row: Row) -> Share? {
        guard let itemID = ItemID(rawValue: row["item_id"]), let permission = Permission(rawValue: row["permission"])
        else { return nil }
        return Share(
            itemID: itemID, granteeID: row["grantee_id"], permission: permission, grantedBy: row["granted_by"],
            grantedAt: Date(timeIntervalSince1970: row["granted_at"]))
    }
}
