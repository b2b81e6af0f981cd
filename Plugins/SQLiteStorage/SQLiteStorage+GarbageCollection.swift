import Foundation
import GRDB
import WOPIStorage

extension SQLiteStorage: GarbageCollectingStorage {
    /// Deletes expired reader leases, abandoned unfinished writes and no longer needed old versions.
    ///
    /// It runs when the storage opens; a long-running host may also call it now and then (hourly is plenty).
    /// It never touches a write that is still making progress or a version a reader still holds.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        let now = configuration.timestamp
        let report = try await perform("collect garbage") {
            try await pool.write { db in try Self.collectGarbage(db, now: now) }
        }
        logReport(report)
        return report
    }

    /// The synchronous form used while opening.
    func collectGarbageNow() throws {
        let now = configuration.timestamp
        do {
            logReport(try pool.write { db in try Self.collectGarbage(db, now: now) })
        } catch {
            throw SQLiteErrorMapping.storageError(error, doing: "collect garbage while opening the storage")
        }
    }

    private func logReport(_ report: GarbageReport) {
        logger.debug(
            "Garbage collected",
            metadata: [
                "abandonedWrites": "\(report.abandonedWrites)", "retiredVersions": "\(report.retiredVersions)",
                "expiredLeases": "\(report.expiredLeases)",
            ])
    }

    private static func collectGarbage(_ db: Database, now: Double) throws -> GarbageReport {
        try db.execute(sql: "DELETE FROM version_leases WHERE expires_at <= ?", arguments: [now])
        let leases = db.changesCount
        try db.execute(
            sql: "DELETE FROM file_versions WHERE state = 'writing' AND write_expires_at <= ?", arguments: [now])
        let abandoned = db.changesCount
        try db.execute(
            sql: """
                DELETE FROM file_versions
                WHERE state = 'complete'
                  AND NOT EXISTS (SELECT 1 FROM items WHERE items.current_version_id = file_versions.id)
                  AND NOT EXISTS (SELECT 1 FROM version_leases l WHERE l.version_id = file_versions.id)
                """)
        return GarbageReport(abandonedWrites: abandoned, retiredVersions: db.changesCount, expiredLeases: leases)
    }
}
