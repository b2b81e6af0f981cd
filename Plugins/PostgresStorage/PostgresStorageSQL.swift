import ChunkedVersionStore
import Foundation
import Logging
package import NIOCore
import PostgresNIO
package import WOPIStorage

/// The SQL building blocks of ``PostgresStorage``, run on a connection inside its transactions.
package struct PostgresStorageSQL {
    let connection: PostgresConnection
    let logger: Logger
    /// The rows of this transaction's statements that deleted chunks, whose bodies go after the commit.
    var removed = RemovedChunkRows()

    /// The columns of an item: `items i` joined with its current version `v`, decoded by ``item(_:)``.
    package static let itemColumns = """
        i.id, i.parent_id, i.owner_id, i.kind, i.name, i.modified_at, v.id, v.size, v.sha256, v.committed_at
        """
    /// One row of ``itemColumns``.
    package typealias ItemRow = (String, String?, String, String, String, Double, Int64?, Int64?, ByteBuffer?, Double?)

    private static let selectItems = """
        SELECT \(itemColumns)
        FROM items i LEFT JOIN file_versions v ON v.id = i.current_version_id
        """

    /// The item of a row of ``itemColumns``.
    package static func item(_ row: ItemRow) throws -> StorageItem {
        let (id, parent, owner, kind, name, modifiedAt, versionID, size, sha256, committedAt) = row
        return try StorageRules.item(
            id: id, parent: parent, owner: owner, kind: kind, name: name, modifiedAt: modifiedAt, versionID: versionID,
            size: size, sha256: sha256.map { Data($0.readableBytesView) }, committedAt: committedAt)
    }

    /// Runs a statement whose rows are not needed.
    func execute(_ query: PostgresQuery) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// Runs a statement and returns the number of rows it returned (use `RETURNING 1` to count changes).
    func count(_ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await connection.query(query, logger: logger) { count += 1 }
        return count
    }

    /// The first row's single column, or `nil`.
    func scalar<T: PostgresDecodable & Sendable>(_ type: T.Type, _ query: PostgresQuery) async throws -> T? {
        for try await value in try await connection.query(query, logger: logger).decode(T.self) { return value }
        return nil
    }

    /// The item with this ID, or `nil`. With `lock`, the row is locked until the transaction ends.
    func item(_ id: ItemID, lock: String = "") async throws -> StorageItem? {
        try await items(
            PostgresQuery(
                unsafeSQL: "\(Self.selectItems) WHERE i.id = $1 \(lock.isEmpty ? "" : "FOR \(lock) OF i")",
                binds: binds(id.rawValue))
        ).first
    }

    /// The item with this ID.
    func requireItem(_ id: ItemID, lock: String = "") async throws -> StorageItem {
        guard let item = try await item(id, lock: lock) else { throw StorageError.notFound(id) }
        return item
    }

    /// The container with this ID.
    func requireContainer(_ id: ItemID, lock: String = "") async throws -> ContainerMetadata {
        guard case .container(let container) = try await requireItem(id, lock: lock) else {
            throw StorageError(.notAContainer, "Item \(id) is a file, not a container.")
        }
        return container
    }

    /// The file with this ID.
    func requireFile(_ id: ItemID, lock: String = "") async throws -> FileMetadata {
        guard case .file(let file) = try await requireItem(id, lock: lock) else {
            throw StorageError(.notAFile, "Item \(id) is a container, not a file.")
        }
        return file
    }

    /// The items whose parent is `parent`, read with `parent` itself in one statement; throws when `parent` is
    /// missing or a file.
    func children(of parent: ItemID) async throws -> [StorageItem] {
        let listed = try await items(
            PostgresQuery(
                unsafeSQL: "\(Self.selectItems) WHERE i.id = $1 OR i.parent_id = $1", binds: binds(parent.rawValue)))
        return try StorageRules.children(of: parent, listed: listed)
    }

    /// Whether any item's parent is `parent`.
    func hasChildren(_ parent: ItemID) async throws -> Bool {
        try await scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM items WHERE parent_id = \(parent.rawValue))") ?? false
    }

    /// The child of `parent` named `name` (already normalised), or `nil`.
    func child(named name: String, in parent: ItemID) async throws -> StorageItem? {
        try await items(
            PostgresQuery(
                unsafeSQL: "\(Self.selectItems) WHERE i.parent_id = $1 AND i.name = $2",
                binds: binds(parent.rawValue, name))
        ).first
    }

    /// The root container of `user`, or `nil`.
    func root(of user: String) async throws -> ContainerMetadata? {
        let found = try await items(
            PostgresQuery(
                unsafeSQL: "\(Self.selectItems) WHERE i.parent_id IS NULL AND i.owner_id = $1", binds: binds(user)))
        guard case .container(let root)? = found.first else { return nil }
        return root
    }

    /// Whether `ancestor` is `id` itself or one of the containers above it.
    func isAncestor(_ ancestor: ItemID, of id: ItemID) async throws -> Bool {
        try await scalar(
            Bool.self,
            """
            WITH RECURSIVE chain(id) AS (
              SELECT \(id.rawValue)::text UNION SELECT items.parent_id FROM items JOIN chain ON items.id = chain.id
              WHERE items.parent_id IS NOT NULL)
            SELECT EXISTS (SELECT 1 FROM chain WHERE id = \(ancestor.rawValue))
            """) ?? false
    }

    /// Sets the modification time of a container (its list of children changed).
    func touch(_ container: ItemID, at time: Double) async throws {
        try await execute("UPDATE items SET modified_at = \(time) WHERE id = \(container.rawValue)")
    }

    /// Runs statements of the chunked-version engine in this transaction and returns the rows of each.
    func run(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        try await PostgresVersionDialect.run(connection, logger: logger, statements, removed: removed)
    }

    private func binds(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        return bindings
    }

    private func items(_ query: PostgresQuery) async throws -> [StorageItem] {
        var result: [StorageItem] = []
        for try await row in try await connection.query(query, logger: logger).decode(ItemRow.self) {
            result.append(try Self.item(row))
        }
        return result
    }
}
