import Foundation
import PostgresNIO
import WOPIStorage

extension PostgresStorage {
    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let name = try Self.normalised(name)
        // Fail fast, before the body streams in; the commit checks again.
        try await transaction("create file \"\(name)\" in \(parent)") { sql in
            _ = try await sql.requireContainer(parent)
            if let existing = try await sql.child(named: name, in: parent) {
                try Self.ensureReplaceable(existing, named: name, overwrite: overwrite)
            }
        }
        return try await commit(content, doing: "create file \"\(name)\" in \(parent)") { sql, staged, now in
            let parentContainer = try await sql.requireContainer(parent, lock: "UPDATE")
            if let existing = try await sql.child(named: name, in: parent) {
                try Self.ensureReplaceable(existing, named: name, overwrite: overwrite)
                return try await Self.switchVersion(sql, of: existing.id, to: staged, now: now)
            }
            let id = ItemID.random()
            try await Self.markCommitted(sql, staged, file: id, now: now)
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

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        let file = try await transaction("write file \(id)") { sql in try await sql.requireFile(id) }
        try Self.ensureVersion(of: file, is: expectedVersion)
        return try await commit(content, doing: "write file \(id)") { sql, staged, now in
            try Self.ensureVersion(of: try await sql.requireFile(id, lock: "UPDATE"), is: expectedVersion)
            return try await Self.switchVersion(sql, of: id, to: staged, now: now)
        }
    }

    /// Stages `content`, then runs `switchTo` in one transaction; discards the staged version if that fails.
    private func commit(
        _ content: ByteStream, doing action: String,
        switchTo:
            @escaping @Sendable (PostgresStorageSQL, PostgresVersionWriter.Staged, Double) async throws
            -> FileMetadata
    ) async throws -> FileMetadata {
        let writer = PostgresVersionWriter(database: database, configuration: configuration)
        let staged = try await writer.stage(content)
        let now = configuration.timestamp
        do {
            return try await transaction(action) { sql in try await switchTo(sql, staged, now) }
        } catch {
            await writer.discard(staged.id)
            throw error
        }
    }

    /// Points file `id` (its row locked) at the staged version and deletes its previous version unless a reader
    /// holds it.
    private static func switchVersion(
        _ sql: PostgresStorageSQL, of id: ItemID, to staged: PostgresVersionWriter.Staged, now: Double
    ) async throws -> FileMetadata {
        let previous = try await sql.scalar(
            Int64.self,
            "SELECT current_version_id FROM items WHERE id = \(id.rawValue) AND kind = 'file' FOR UPDATE")
        try await markCommitted(sql, staged, file: id, now: now)
        try await sql.execute(
            "UPDATE items SET current_version_id = \(staged.id), modified_at = \(now) WHERE id = \(id.rawValue)")
        try await sql.discardRetired(previous, now: now)
        return try await sql.requireFile(id)
    }

    /// Marks a staged version complete and owned by `file`; fails if garbage collection took it meanwhile.
    private static func markCommitted(
        _ sql: PostgresStorageSQL, _ staged: PostgresVersionWriter.Staged, file: ItemID, now: Double
    ) async throws {
        let changed = try await sql.count(
            """
            UPDATE file_versions
            SET state = 'complete', file_id = \(file.rawValue), size = \(staged.size), sha256 = \(staged.sha256),
                committed_at = \(now), write_expires_at = NULL
            WHERE id = \(staged.id) AND state = 'writing' RETURNING 1
            """)
        guard changed == 1 else {
            throw StorageError(.io, "The upload took so long that its content was collected; send it again.")
        }
    }

    private static func ensureReplaceable(_ existing: StorageItem, named name: String, overwrite: Bool) throws {
        guard overwrite, case .file = existing else {
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in this container.",
                conflictingItem: existing.id)
        }
    }

    private static func ensureVersion(of file: FileMetadata, is expectedVersion: String?) throws {
        if let expectedVersion, expectedVersion != file.version {
            throw StorageError(
                .versionMismatch, "File \(file.id) changed meanwhile (now at version \(file.version)); reload it.",
                currentVersion: file.version)
        }
    }
}
