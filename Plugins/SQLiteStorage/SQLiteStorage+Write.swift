import Foundation
import GRDB
import WOPIStorage

extension SQLiteStorage {
    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let name = try Self.normalised(name)
        return try await perform("create file \"\(name)\" in \(parent)") {
            // Fail fast, before the body streams in; the commit checks again.
            try await pool.read { db in
                _ = try StorageSQL.requireContainer(db, parent)
                if let existing = try StorageSQL.child(db, named: name, in: parent) {
                    try Self.ensureReplaceable(existing, named: name, overwrite: overwrite)
                }
            }
            return try await commit(content) { db, staged, now in
                let parentContainer = try StorageSQL.requireContainer(db, parent)
                if let existing = try StorageSQL.child(db, named: name, in: parent) {
                    try Self.ensureReplaceable(existing, named: name, overwrite: overwrite)
                    return try Self.switchVersion(db, of: existing.id, to: staged, now: now)
                }
                let id = ItemID.random()
                try db.execute(
                    sql: """
                        INSERT INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at,
                                           current_version_id)
                        VALUES (?, ?, ?, 'file', ?, ?, ?, ?)
                        """,
                    arguments: [id.rawValue, parent.rawValue, parentContainer.ownerID, name, now, now, staged.id])
                try Self.markCommitted(db, staged, file: id, now: now)
                try StorageSQL.touch(db, parent, at: now)
                return try StorageSQL.requireFile(db, id)
            }
        }
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        try await perform("write file \(id)") {
            let file = try await pool.read { db in try StorageSQL.requireFile(db, id) }
            try Self.ensureVersion(of: file, is: expectedVersion)
            return try await commit(content) { db, staged, now in
                try Self.ensureVersion(of: StorageSQL.requireFile(db, id), is: expectedVersion)
                return try Self.switchVersion(db, of: id, to: staged, now: now)
            }
        }
    }

    /// Stages `content`, then runs `switchTo` in one write transaction; discards the staged version if it fails.
    private func commit(
        _ content: ByteStream,
        switchTo: @escaping @Sendable (Database, VersionWriter.Staged, Double) throws -> FileMetadata
    ) async throws -> FileMetadata {
        let writer = VersionWriter(pool: pool, configuration: configuration, logger: logger)
        let staged = try await writer.stage(content)
        let now = configuration.timestamp
        do {
            return try await pool.write { db in try switchTo(db, staged, now) }
        } catch {
            await writer.discard(staged.id)
            throw error
        }
    }

    /// Points file `id` at the staged version and deletes its previous version unless a reader holds it.
    private static func switchVersion(_ db: Database, of id: ItemID, to staged: VersionWriter.Staged, now: Double)
        throws -> FileMetadata
    {
        let previous = try Int64.fetchOne(
            db, sql: "SELECT current_version_id FROM items WHERE id = ? AND kind = 'file'", arguments: [id.rawValue])
        try markCommitted(db, staged, file: id, now: now)
        try db.execute(
            sql: "UPDATE items SET current_version_id = ?, modified_at = ? WHERE id = ?",
            arguments: [staged.id, now, id.rawValue])
        try StorageSQL.discardRetired(db, [previous].compactMap { $0 }, now: now)
        return try StorageSQL.requireFile(db, id)
    }

    /// Marks a staged version complete and owned by `file`; fails if garbage collection took it meanwhile.
    private static func markCommitted(_ db: Database, _ staged: VersionWriter.Staged, file: ItemID, now: Double)
        throws
    {
        try db.execute(
            sql: """
                UPDATE file_versions
                SET state = 'complete', file_id = ?, size = ?, sha256 = ?, committed_at = ?, write_expires_at = NULL
                WHERE id = ? AND state = 'writing'
                """, arguments: [file.rawValue, staged.size, staged.sha256, now, staged.id])
        guard db.changesCount == 1 else {
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
