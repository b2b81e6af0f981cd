import Foundation
import Logging
import NIOCore
import PostgresNIO
import WOPIStorage

/// The SQL building blocks of ``PostgresStorage``, run on a connection inside its transactions.
struct PostgresStorageSQL {
    let connection: PostgresConnection
    let logger: Logger

    private static let selectItems = """
        SELECT i.id, i.parent_id, i.owner_id, i.kind, i.name, i.modified_at,
               v.id, v.size, v.sha256, v.committed_at
        FROM items i LEFT JOIN file_versions v ON v.id = i.current_version_id
        """

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

    /// The items whose parent is `parent`.
    func children(of parent: ItemID) async throws -> [StorageItem] {
        try await items(
            PostgresQuery(unsafeSQL: "\(Self.selectItems) WHERE i.parent_id = $1", binds: binds(parent.rawValue)))
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

    /// Deletes the version if it is complete, no file's current version and not leased by a reader.
    func discardRetired(_ versionID: Int64?, now: Double) async throws {
        guard let versionID else { return }
        try await execute(
            """
            DELETE FROM file_versions
            WHERE id = \(versionID) AND state = 'complete'
              AND NOT EXISTS (SELECT 1 FROM items WHERE items.current_version_id = file_versions.id)
              AND NOT EXISTS (SELECT 1 FROM version_leases l
                              WHERE l.version_id = file_versions.id AND l.expires_at > \(now))
            """)
    }

    /// The database ID of a version string made by this backend, or `nil` for a foreign string.
    static func versionID(_ version: String) -> Int64? { Int64(version) }

    private func binds(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        return bindings
    }

    private func items(_ query: PostgresQuery) async throws -> [StorageItem] {
        var result: [StorageItem] = []
        let rows = try await connection.query(query, logger: logger).decode(
            (String, String?, String, String, String, Double, Int64?, Int64?, ByteBuffer?, Double?).self)
        for try await (rawID, rawParent, owner, kind, name, modifiedAt, versionID, size, sha256, committedAt) in rows {
            guard let id = ItemID(rawValue: rawID) else {
                throw StorageError(.corrupt, "The database holds an invalid item ID \"\(rawID)\"; restore a backup.")
            }
            let parent = try rawParent.map { raw in
                guard let parent = ItemID(rawValue: raw) else {
                    throw StorageError(.corrupt, "Item \(id) has an invalid parent ID \"\(raw)\"; restore a backup.")
                }
                return parent
            }
            let modified = Date(timeIntervalSince1970: modifiedAt)
            guard kind == "file" else {
                result.append(
                    .container(
                        ContainerMetadata(id: id, name: name, parentID: parent, ownerID: owner, lastModified: modified))
                )
                continue
            }
            guard let parent, let versionID else {
                throw StorageError(.corrupt, "File \(id) has no parent or no content version; restore a backup.")
            }
            result.append(
                .file(
                    FileMetadata(
                        id: id, name: name, parentID: parent, ownerID: owner, size: size ?? 0,
                        version: String(versionID),
                        lastModified: committedAt.map(Date.init(timeIntervalSince1970:)) ?? modified,
                        sha256: sha256.map { Data($0.readableBytesView) })))
        }
        return result
    }
}
