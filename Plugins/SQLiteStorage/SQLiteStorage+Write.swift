import ChunkedVersionStore
import Foundation
import GRDB
public import WOPIStorage

extension SQLiteStorage {
    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let name = try StorageRules.normalised(name)
        let versions = versions
        return try await perform("create file \"\(name)\" in \(parent)") {
            // Fail fast, before the body streams in; the commit checks again.
            try await pool.read { db in
                _ = try SQLiteStorageSQL.requireContainer(db, parent)
                if let existing = try SQLiteStorageSQL.child(db, named: name, in: parent) {
                    try StorageRules.ensureReplaceable(existing, named: name, overwrite: overwrite)
                }
            }
            return try await versions.commit(content) { staged, now in
                try await pool.write { db in
                    let parentContainer = try SQLiteStorageSQL.requireContainer(db, parent)
                    if let existing = try SQLiteStorageSQL.child(db, named: name, in: parent) {
                        let file = try StorageRules.ensureReplaceable(existing, named: name, overwrite: overwrite)
                        return try Self.switchVersion(db, versions, of: file, to: staged, now: now)
                    }
                    let id = ItemID.random()
                    try db.execute(
                        sql: """
                            INSERT INTO items (id, parent_id, owner_id, kind, name, created_at, modified_at,
                                               current_version_id)
                            VALUES (?, ?, ?, 'file', ?, ?, ?, ?)
                            """,
                        arguments: [id.rawValue, parent.rawValue, parentContainer.ownerID, name, now, now, staged.id])
                    _ = try versions.dialect.run(db, VersionSQL.markCommitted(staged, file: id, now: now))
                    try SQLiteStorageSQL.touch(db, parent, at: now)
                    return try SQLiteStorageSQL.requireFile(db, id)
                }
            }
        }
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        let versions = versions
        return try await perform("write file \(id)") {
            let file = try await pool.read { db in try SQLiteStorageSQL.requireFile(db, id) }
            try StorageRules.ensureVersion(of: file, is: expectedVersion)
            return try await versions.commit(content) { staged, now in
                try await pool.write { db in
                    let file = try SQLiteStorageSQL.requireFile(db, id)
                    try StorageRules.ensureVersion(of: file, is: expectedVersion)
                    return try Self.switchVersion(db, versions, of: file, to: staged, now: now)
                }
            }
        }
    }

    /// Points `file` at the staged version and deletes its previous version unless a reader holds it.
    private static func switchVersion(
        _ db: Database, _ versions: ChunkedVersionStore<SQLiteVersionDialect>, of file: FileMetadata,
        to staged: StagedVersion, now: Double
    ) throws -> FileMetadata {
        _ = try versions.dialect.run(
            db,
            versions.switchStatements(
                file: file.id, to: staged, previous: VersionSQL.versionID(file.version), now: now))
        return try SQLiteStorageSQL.requireFile(db, file.id)
    }
}
