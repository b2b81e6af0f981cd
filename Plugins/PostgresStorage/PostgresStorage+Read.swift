import Foundation
import PostgresNIO
import WOPIStorage

extension PostgresStorage {
    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        let now = configuration.timestamp
        let leaseExpiry = now + configuration.readLeaseDuration
        // The file's row is read FOR SHARE: a switch to a new version on any host waits until the lease exists.
        let (file, chunkSize, leaseID) = try await transaction("open file \(id) for reading") { sql in
            let file = try await sql.requireFile(id, lock: "SHARE")
            guard let versionID = PostgresStorageSQL.versionID(file.version),
                let chunkSize = try await sql.scalar(
                    Int32.self, "SELECT chunk_size FROM file_versions WHERE id = \(versionID)")
            else {
                throw StorageError(.corrupt, "File \(id) points to a missing version; restore a backup.")
            }
            guard
                let leaseID = try await sql.scalar(
                    Int64.self,
                    """
                    INSERT INTO version_leases (version_id, expires_at) VALUES (\(versionID), \(leaseExpiry))
                    RETURNING id
                    """)
            else { throw StorageError(.io, "The database did not return the read lease's ID; retry.") }
            return (file, Int64(chunkSize), leaseID)
        }
        let lower = min(max(range?.lowerBound ?? 0, 0), file.size)
        let upper = min(max(range?.upperBound ?? file.size, lower), file.size)
        let reader = PostgresVersionReader(
            database: database, configuration: configuration,
            versionID: PostgresStorageSQL.versionID(file.version)!, chunkSize: chunkSize, range: lower..<upper,
            leaseID: leaseID, leaseExpiresAt: leaseExpiry)
        let body = ByteStream(knownLength: upper - lower) {
            { try await reader.next() }
        }
        return FileContent(metadata: file, body: body)
    }
}
