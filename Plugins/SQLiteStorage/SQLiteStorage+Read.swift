import Foundation
import GRDB
import WOPIStorage

extension SQLiteStorage {
    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        let now = configuration.timestamp
        let leaseExpiry = now + configuration.readLeaseDuration
        let (file, chunkSize, leaseID) = try await perform("open file \(id) for reading") {
            try await pool.write { db in
                let file = try StorageSQL.requireFile(db, id)
                guard let versionID = StorageSQL.versionID(file.version),
                    let chunkSize = try Int64.fetchOne(
                        db.cachedStatement(sql: "SELECT chunk_size FROM file_versions WHERE id = ?"),
                        arguments: [versionID])
                else {
                    throw StorageError(.corrupt, "File \(id) points to a missing version; restore a backup.")
                }
                try db.cachedStatement(sql: "INSERT INTO version_leases (version_id, expires_at) VALUES (?, ?)")
                    .execute(arguments: [versionID, leaseExpiry])
                return (file, chunkSize, db.lastInsertedRowID)
            }
        }
        let lower = min(max(range?.lowerBound ?? 0, 0), file.size)
        let upper = min(max(range?.upperBound ?? file.size, lower), file.size)
        let reader = VersionReader(
            pool: pool, configuration: configuration, logger: logger, versionID: StorageSQL.versionID(file.version)!,
            chunkSize: chunkSize, range: lower..<upper, leaseID: leaseID, leaseExpiresAt: leaseExpiry)
        let body = ByteStream(knownLength: upper - lower) {
            { try await reader.next() }
        }
        return FileContent(metadata: file, body: body)
    }
}
