import Foundation
package import WOPIStorage

/// The SQL of the chunked-version engine, on the tables `file_versions` and `version_leases` (and
/// `items.current_version_id`), in the subset SQLite and PostgreSQL share; ``ChunkSQL`` has the content's. The old
/// fixed-size `content_chunks` rows are read for the versions written before the chunk layout.
package enum VersionSQL {
    /// A new, empty `writing` version in the chunk layout, in pieces of `pieceSize`; returns its ID.
    static func begin(pieceSize: Int, now: Double, expiry: Double) -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO file_versions (file_id, state, layout, chunk_size, created_at, write_expires_at)
            VALUES (NULL, 'writing', 'chunks', ?, ?, ?) RETURNING id
            """, [.integer(Int64(pieceSize)), .real(now), .real(expiry)], columns: [.integer],
            expecting: (1, StorageError(.io, "The database did not return the new version's ID; retry.")))
    }

    /// Pushes back the expiry of a `writing` version; fails when garbage collection took it.
    static func renewWrite(_ versionID: Int64, expiry: Double) -> SQLStatement {
        SQLStatement(
            "UPDATE file_versions SET write_expires_at = ? WHERE id = ? AND state = 'writing' RETURNING 1",
            [.real(expiry), .integer(versionID)], columns: [.integer],
            expecting: (
                1,
                StorageError(.io, "The upload stalled so long that its partial content was collected; send it again.")
            ))
    }

    /// Deletes a version that was never committed, with the content only it holds.
    static func discardUnfinished(_ versionID: Int64, skipLocked: String) -> [SQLStatement] {
        ChunkSQL.discard(versionID, when: "f.state = 'writing'", [], skipLocked: skipLocked)
    }

    /// Chunks `range` of a version in the old fixed-size layout, in order: their index and data.
    static func chunks(of versionID: Int64, _ range: Range<Int64>) -> SQLStatement {
        SQLStatement(
            """
            SELECT chunk_index, data FROM content_chunks
            WHERE version_id = ? AND chunk_index >= ? AND chunk_index < ? ORDER BY chunk_index
            """, [.integer(versionID), .integer(range.lowerBound), .integer(range.upperBound)],
            columns: [.integer, .blob])
    }

    /// The layout of a version: its piece size (chunk size in the old layout), whether it is in the chunk layout
    /// (1, else 0) and whether it was cut as a zip (1, else 0); fails when the version is missing.
    package static func layout(of versionID: Int64, file: ItemID) -> SQLStatement {
        SQLStatement(
            "SELECT chunk_size, CASE WHEN layout = 'chunks' THEN 1 ELSE 0 END, is_zip FROM file_versions WHERE id = ?",
            [.integer(versionID)], columns: [.integer, .integer, .integer],
            expecting: (1, StorageError(.corrupt, "File \(file) points to a missing version; restore a backup.")))
    }

    /// A new read lease on a version; returns its ID.
    static func takeLease(on versionID: Int64, expiry: Double) -> SQLStatement {
        SQLStatement(
            "INSERT INTO version_leases (version_id, expires_at) VALUES (?, ?) RETURNING id",
            [.integer(versionID), .real(expiry)], columns: [.integer],
            expecting: (1, StorageError(.io, "The database did not return the read lease's ID; retry.")))
    }

    /// Pushes back a lease's expiry; returns a row when the lease was still there.
    static func renewLease(_ leaseID: Int64, expiry: Double) -> SQLStatement {
        SQLStatement(
            "UPDATE version_leases SET expires_at = ? WHERE id = ? RETURNING 1", [.real(expiry), .integer(leaseID)],
            columns: [.integer])
    }

    /// Takes a lease again under its ID after garbage collection removed it, if the version is still there;
    /// returns a row when it did.
    static func retakeLease(_ leaseID: Int64, on versionID: Int64, expiry: Double, explicitIdentity: String)
        -> SQLStatement
    {
        SQLStatement(
            """
            INSERT INTO version_leases (id, version_id, expires_at) \(explicitIdentity)
            SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM version_leases WHERE id = ?)
              AND EXISTS (SELECT 1 FROM file_versions WHERE id = ?)
            RETURNING 1
            """,
            [.integer(leaseID), .integer(versionID), .real(expiry), .integer(leaseID), .integer(versionID)],
            columns: [.integer])
    }

    /// Ends a read lease.
    static func releaseLease(_ leaseID: Int64) -> SQLStatement {
        SQLStatement("DELETE FROM version_leases WHERE id = ?", [.integer(leaseID)])
    }

    /// Marks a staged version complete and owned by `file`, with who saved it and how (``StagedVersion/save``);
    /// fails if garbage collection took it meanwhile.
    package static func markCommitted(_ staged: StagedVersion, file: ItemID, now: Double) -> SQLStatement {
        SQLStatement(
            """
            UPDATE file_versions
            SET state = 'complete', file_id = ?, size = ?, sha256 = ?, is_zip = ?, committed_at = ?,
                write_expires_at = NULL, saved_by = ?, save_path = ?, is_autosave = ?, is_exit_save = ?
            WHERE id = ? AND state = 'writing' RETURNING 1
            """,
            [
                .text(file.rawValue), .integer(staged.size), .blob(staged.sha256), .integer(staged.isZip ? 1 : 0),
                .real(now), staged.save.userID.map(SQLArgument.text) ?? .null, .text(staged.save.path.rawValue),
                .integer(staged.save.isAutosave ? 1 : 0), .integer(staged.save.isExitSave ? 1 : 0), .integer(staged.id),
            ],
            columns: [.integer],
            expecting: (1, StorageError(.io, "The upload took so long that its content was collected; send it again.")))
    }

    /// Points file `id` at a version.
    static func pointFile(_ id: ItemID, at versionID: Int64, now: Double) -> SQLStatement {
        SQLStatement(
            "UPDATE items SET current_version_id = ?, modified_at = ? WHERE id = ?",
            [.integer(versionID), .real(now), .text(id.rawValue)])
    }

    /// Deletes the version, with the content only it holds, if it is no longer needed
    /// (``VersionHistorySQL/removable(now:retention:)``). `skipLocked` as ``ChunkSQL/collectChunks(skipLocked:)``
    /// takes it.
    static func discardRetired(_ versionID: Int64, now: Double, retention: VersionRetention, skipLocked: String)
        -> [SQLStatement]
    {
        let (condition, arguments) = VersionHistorySQL.removable(now: now, retention: retention)
        return ChunkSQL.discard(versionID, when: condition, arguments, skipLocked: skipLocked)
    }

    /// The statements of a garbage collection: expired leases, abandoned writes, versions no longer needed
    /// (``VersionHistorySQL/removable(now:retention:)``), chunks no version lists and pieces of no chunk; each
    /// returns a row per deletion. `skipLocked` as ``ChunkSQL/collectChunks(skipLocked:)`` takes it.
    package static func collectGarbage(now: Double, retention: VersionRetention, skipLocked: String)
        -> [SQLStatement]
    {
        let (removable, arguments) = VersionHistorySQL.removable(now: now, retention: retention)
        return [
            SQLStatement(
                "DELETE FROM version_leases WHERE expires_at <= ? RETURNING 1", [.real(now)], columns: [.integer]),
            SQLStatement(
                "DELETE FROM file_versions WHERE state = 'writing' AND write_expires_at <= ? RETURNING 1",
                [.real(now)], columns: [.integer]),
            SQLStatement(
                "DELETE FROM file_versions WHERE id IN (SELECT f.id FROM file_versions f WHERE \(removable)) RETURNING 1",
                arguments, columns: [.integer]),
            ChunkSQL.collectChunks(skipLocked: skipLocked),
            ChunkSQL.collectPieces,
        ]
    }

    /// The report of the rows of ``collectGarbage(now:)``.
    package static func garbageReport(_ rows: [[SQLRow]]) -> GarbageReport {
        GarbageReport(abandonedWrites: rows[1].count, retiredVersions: rows[2].count, expiredLeases: rows[0].count)
    }

    /// The database ID of a version string made by this engine, or `nil` for a foreign string.
    package static func versionID(_ version: String) -> Int64? { Int64(version) }
}
