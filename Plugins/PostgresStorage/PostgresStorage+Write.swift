import ChunkedVersionStore
import Foundation
import PostgresNIO
public import WOPIStorage

extension PostgresStorage {
    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let name = try StorageRules.normalised(name)
        let action = "create file \"\(name)\" in \(parent)"
        // Fail fast, before the body streams in; the commit checks again.
        try await transaction(action) { sql in
            _ = try await sql.requireContainer(parent)
            if let existing = try await sql.child(named: name, in: parent) {
                try StorageRules.ensureReplaceable(existing, named: name, overwrite: overwrite)
            }
        }
        return try await versions.commit(content) { staged, now in
            try await transaction(action) { sql in
                let parentContainer = try await sql.requireContainer(parent, lock: "UPDATE")
                if let existing = try await sql.child(named: name, in: parent) {
                    try StorageRules.ensureReplaceable(existing, named: name, overwrite: overwrite)
                    return try await self.switchVersion(sql, of: existing.id, to: staged, now: now)
                }
                let id = ItemID.random()
                _ = try await sql.run([VersionSQL.markCommitted(staged, file: id, now: now)])
                try await sql.execute(
                    """
                    INSERT INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at, current_version_id)
                    VALUES (\(id.rawValue), \(parent.rawValue), \(parentContainer.ownerID), 'file', \(name), \(now),
                            \(now), \(staged.id))
                    """)
                try await sql.touch(parent, at: now)
                return try await sql.requireFile(id)
            }
        }
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        let file = try await transaction("write file \(id)") { sql in try await sql.requireFile(id) }
        try StorageRules.ensureVersion(of: file, is: expectedVersion)
        return try await versions.commit(content) { staged, now in
            try await transaction("write file \(id)") { sql in
                try StorageRules.ensureVersion(of: try await sql.requireFile(id, lock: "UPDATE"), is: expectedVersion)
                return try await self.switchVersion(sql, of: id, to: staged, now: now)
            }
        }
    }

    /// Points file `id` (its row locked) at the staged version and deletes its previous version unless a reader
    /// holds it.
    private func switchVersion(_ sql: PostgresStorageSQL, of id: ItemID, to staged: StagedVersion, now: Double)
        async throws -> FileMetadata
    {
        let file = try await sql.requireFile(id, lock: "UPDATE")
        _ = try await sql.run(
            versions.switchStatements(
                file: id, to: staged, previous: VersionSQL.versionID(file.version), now: now))
        return try await sql.requireFile(id)
    }
}
