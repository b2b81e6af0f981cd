import Foundation
import GRDB
import WOPIStorage

/// The synchronous SQL building blocks of ``SQLiteStorage``, run inside its transactions.
///
/// The statements of the request path are prepared once per connection and reused
/// (`Database.cachedStatement(sql:)`): parsing and authorising SQL is most of a short query's cost.
enum StorageSQL {
    private static let selectItems = """
        SELECT i.id, i.parent_id, i.owner_id, i.kind, i.name, i.modified_at,
               v.id AS version_id, v.size, v.sha256, v.committed_at
        FROM items i LEFT JOIN file_versions v ON v.id = i.current_version_id
        """
    private static let selectItemByID = "\(selectItems) WHERE i.id = ?"
    private static let selectChildren = "\(selectItems) WHERE i.parent_id = ?"

    /// The item with this ID, or `nil`.
    static func item(_ db: Database, _ id: ItemID) throws -> StorageItem? {
        try Row.fetchOne(db.cachedStatement(sql: selectItemByID), arguments: [id.rawValue]).map(decode)
    }

    /// The item with this ID.
    static func requireItem(_ db: Database, _ id: ItemID) throws -> StorageItem {
        guard let item = try item(db, id) else { throw StorageError.notFound(id) }
        return item
    }

    /// The container with this ID.
    static func requireContainer(_ db: Database, _ id: ItemID) throws -> ContainerMetadata {
        guard case .container(let container) = try requireItem(db, id) else {
            throw StorageError(.notAContainer, "Item \(id) is a file, not a container.")
        }
        return container
    }

    /// The file with this ID.
    static func requireFile(_ db: Database, _ id: ItemID) throws -> FileMetadata {
        guard case .file(let file) = try requireItem(db, id) else {
            throw StorageError(.notAFile, "Item \(id) is a container, not a file.")
        }
        return file
    }

    /// The items whose parent is `parent`.
    static func children(_ db: Database, of parent: ItemID) throws -> [StorageItem] {
        try Row.fetchAll(db.cachedStatement(sql: selectChildren), arguments: [parent.rawValue]).map(decode)
    }

    /// The child of `parent` named `name` (already normalised), or `nil`.
    static func child(_ db: Database, named name: String, in parent: ItemID) throws -> StorageItem? {
        try Row.fetchOne(
            db.cachedStatement(sql: "\(selectItems) WHERE i.parent_id = ? AND i.name = ?"),
            arguments: [parent.rawValue, name]
        ).map(decode)
    }

    /// The root container of `user`, or `nil`.
    static func root(_ db: Database, of user: String) throws -> ContainerMetadata? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "\(selectItems) WHERE i.parent_id IS NULL AND i.owner_id = ?"), arguments: [user])
        guard let row, case .container(let root) = try decode(row) else { return nil }
        return root
    }

    /// Whether `ancestor` is `id` itself or one of the containers above it.
    static func isAncestor(_ db: Database, _ ancestor: ItemID, of id: ItemID) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                WITH RECURSIVE chain(id) AS (
                  SELECT ? UNION SELECT items.parent_id FROM items JOIN chain ON items.id = chain.id
                  WHERE items.parent_id IS NOT NULL)
                SELECT EXISTS (SELECT 1 FROM chain WHERE id = ?)
                """, arguments: [id.rawValue, ancestor.rawValue]) ?? false
    }

    /// Sets the modification time of a container (its list of children changed).
    static func touch(_ db: Database, _ container: ItemID, at time: Double) throws {
        try db.cachedStatement(sql: "UPDATE items SET modified_at = ? WHERE id = ?").execute(
            arguments: [time, container.rawValue])
    }

    /// Deletes those of `versionIDs` that are complete, no file's current version and not leased by a reader.
    static func discardRetired(_ db: Database, _ versionIDs: [Int64], now: Double) throws {
        for versionID in versionIDs {
            try db.execute(
                sql: """
                    DELETE FROM file_versions
                    WHERE id = ? AND state = 'complete'
                      AND NOT EXISTS (SELECT 1 FROM items WHERE items.current_version_id = file_versions.id)
                      AND NOT EXISTS (SELECT 1 FROM version_leases l
                                      WHERE l.version_id = file_versions.id AND l.expires_at > ?)
                    """, arguments: [versionID, now])
        }
    }

    /// The database ID of a version string made by this backend, or `nil` for a foreign string.
    static func versionID(_ version: String) -> Int64? { Int64(version) }

    private static func decode(_ row: Row) throws -> StorageItem {
        let rawID: String = row["id"]
        let rawParent: String? = row["parent_id"]
        guard let id = ItemID(rawValue: rawID) else {
            throw StorageError(.corrupt, "The database holds an invalid item ID \"\(rawID)\"; restore a backup.")
        }
        let parent = try rawParent.map { raw in
            guard let parent = ItemID(rawValue: raw) else {
                throw StorageError(.corrupt, "Item \(id) has an invalid parent ID \"\(raw)\"; restore a backup.")
            }
            return parent
        }
        let kind: String = row["kind"]
        let name: String = row["name"]
        let owner: String = row["owner_id"]
        let modified = Date(timeIntervalSince1970: row["modified_at"])
        guard kind == "file" else {
            return .container(
                ContainerMetadata(id: id, name: name, parentID: parent, ownerID: owner, lastModified: modified))
        }
        guard let parent, let versionID: Int64 = row["version_id"] else {
            throw StorageError(.corrupt, "File \(id) has no parent or no content version; restore a backup.")
        }
        let committed: Double? = row["committed_at"]
        return .file(
            FileMetadata(
                id: id, name: name, parentID: parent, ownerID: owner, size: row["size"], version: String(versionID),
                lastModified: committed.map(Date.init(timeIntervalSince1970:)) ?? modified, sha256: row["sha256"]))
    }
}
