import ChunkedVersionStore
import Foundation
import GRDB
package import WOPIStorage

/// The synchronous SQL building blocks of ``SQLiteStorage``, run inside its transactions.
///
/// The statements of the request path are prepared once per connection and reused
/// (`Database.cachedStatement(sql:)`): parsing and authorising SQL is most of a short query's cost.
package enum SQLiteStorageSQL {
    /// The columns of an item, of `items i` and its current version `file_versions v`, in the order
    /// ``item(_:startingAt:)`` reads them; a statement of another module that reads an item with its own columns
    /// selects these (`SQLiteAuthorizationReader`).
    package static let itemColumns = """
        i.id, i.parent_id, i.owner_id, i.kind, i.name, i.modified_at, v.id AS version_id, v.size, v.sha256, \
        v.committed_at
        """
    /// How many columns ``itemColumns`` has.
    package static let itemColumnCount = Column.committedAt + 1
    private static let selectItems = """
        SELECT \(itemColumns)
        FROM items i LEFT JOIN file_versions v ON v.id = i.current_version_id
        """
    /// The position of each column of ``itemColumns`` after the first, which ``item(_:startingAt:)`` reads by
    /// position: looking a column up by name costs a search per value.
    private enum Column {
        static let id = 0, parentID = 1, ownerID = 2, kind = 3, name = 4, modifiedAt = 5
        static let versionID = 6, size = 7, sha256 = 8, committedAt = 9
    }
    private static let selectItemByID = "\(selectItems) WHERE i.id = ?"
    /// A container and its children: the one statement of a listing (``StorageRules/children(of:listed:)``).
    private static let selectListing = "\(selectItems) WHERE i.id = ? OR i.parent_id = ?"

    /// The first item `statement` selects, decoded from SQLite's row buffer (no copy of the row), or `nil`.
    private static func firstItem(_ statement: Statement, _ arguments: StatementArguments) throws -> StorageItem? {
        try StatementRow.first(statement, arguments: arguments) { try item($0, startingAt: 0) }
    }

    /// The item with this ID, or `nil`.
    static func item(_ db: Database, _ id: ItemID) throws -> StorageItem? {
        try firstItem(db.cachedStatement(sql: selectItemByID), [id.rawValue])
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

    /// The items whose parent is `parent`, read with `parent` itself in one statement; throws when `parent` is
    /// missing or a file.
    static func children(_ db: Database, of parent: ItemID) throws -> [StorageItem] {
        let listed = try StatementRow.map(
            db.cachedStatement(sql: selectListing), arguments: [parent.rawValue, parent.rawValue]
        ) { try item($0, startingAt: 0) }
        return try StorageRules.children(of: parent, listed: listed)
    }

    /// Whether any item's parent is `parent`.
    static func hasChildren(_ db: Database, _ parent: ItemID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM items WHERE parent_id = ?)"),
            arguments: [parent.rawValue]) ?? false
    }

    /// The child of `parent` named `name` (already normalised), or `nil`.
    static func child(_ db: Database, named name: String, in parent: ItemID) throws -> StorageItem? {
        try firstItem(
            db.cachedStatement(sql: "\(selectItems) WHERE i.parent_id = ? AND i.name = ?"), [parent.rawValue, name])
    }

    /// The root container of `user`, or `nil`.
    static func root(_ db: Database, of user: String) throws -> ContainerMetadata? {
        let item = try firstItem(
            db.cachedStatement(sql: "\(selectItems) WHERE i.parent_id IS NULL AND i.owner_id = ?"), [user])
        guard case .container(let root) = item else { return nil }
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

    /// The item whose ``itemColumns`` start at column `first` of `row`.
    package static func item(_ row: StatementRow, startingAt first: Int) throws -> StorageItem {
        try StorageRules.item(
            id: row.required(first + Column.id), parent: row.optional(first + Column.parentID),
            owner: row.required(first + Column.ownerID), kind: row.required(first + Column.kind),
            name: row.required(first + Column.name), modifiedAt: row.required(first + Column.modifiedAt),
            versionID: row.optional(first + Column.versionID), size: row.optional(first + Column.size),
            sha256: row.optional(first + Column.sha256), committedAt: row.optional(first + Column.committedAt))
    }
}
