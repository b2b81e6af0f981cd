import Foundation
import PostgresNIO
import WOPIStorage

extension PostgresStorage: GarbageCollectingStorage {
    /// Deletes expired reader leases, abandoned unfinished writes and no longer needed old versions.
    ///
    /// Safe while other hosts read and write: it never touches a write that is still making progress or a
    /// version an unexpired lease holds. `StorageGarbageCollector` runs it periodically in a host.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        let now = configuration.timestamp
        return try await transaction("collect garbage") { sql in
            let leases = try await sql.count("DELETE FROM version_leases WHERE expires_at <= \(now) RETURNING 1")
            let abandoned = try await sql.count(
                "DELETE FROM file_versions WHERE state = 'writing' AND write_expires_at <= \(now) RETURNING 1")
            let retired = try await sql.count(
                """
                DELETE FROM file_versions
                WHERE state = 'complete'
                  AND NOT EXISTS (SELECT 1 FROM items WHERE items.current_version_id = file_versions.id)
                  AND NOT EXISTS (SELECT 1 FROM version_leases l WHERE l.version_id = file_versions.id)
                RETURNING 1
                """)
            return GarbageReport(abandonedWrites: abandoned, retiredVersions: retired, expiredLeases: leases)
        }
    }
}
