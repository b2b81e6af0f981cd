import Foundation
import NIOCore
package import WOPIStorage

/// The SQL of version history on `file_versions`: who saved each version and how, which are kept by name, the
/// retention rules (``VersionRetention``) and the listing, reading and removal of earlier versions.
///
/// A version stays while it is the current version of its file, while a reader leases it, or while it is neither
/// `retired` (removed by a user, coalesced away, or past the rules at a save) nor past the rules nor of a deleted
/// file; every statement that deletes versions asks ``removable(now:retention:)``, so the switch to a new version,
/// the release of a lease and garbage collection all agree.
package enum VersionHistorySQL {
    /// The schema of the history: the save's user, path and editor flags, `kept` for a version kept by name, and
    /// `retired` for one that goes as soon as no reader holds it; versions saved before have none of them.
    package static let migration = [
        "ALTER TABLE file_versions ADD COLUMN saved_by TEXT",
        "ALTER TABLE file_versions ADD COLUMN save_path TEXT",
        "ALTER TABLE file_versions ADD COLUMN is_autosave INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE file_versions ADD COLUMN is_exit_save INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE file_versions ADD COLUMN kept INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE file_versions ADD COLUMN retired INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX file_versions_history ON file_versions (file_id, id)",
    ]

    /// The condition, on a `file_versions` row `f`, under which the version is no longer needed at `now`: it is
    /// complete, no file's current version and leased by no reader, and it is retired, of a deleted file, or not
    /// kept and past `retention`'s rules.
    static func removable(now: Double, retention: VersionRetention) -> (String, [SQLArgument]) {
        let (rules, arguments) = rules(retention, now: now)
        return (
            """
            f.state = 'complete'
              AND NOT EXISTS (SELECT 1 FROM items WHERE items.current_version_id = f.id)
              AND NOT EXISTS (SELECT 1 FROM version_leases l WHERE l.version_id = f.id AND l.expires_at > ?)
              AND (f.retired = 1 OR NOT EXISTS (SELECT 1 FROM items i WHERE i.id = f.file_id)
                   OR (f.kept = 0 AND (\(rules))))
            """, [.real(now)] + arguments
        )
    }

    /// `retention`'s rules as a condition on a `file_versions` row `f`: enough newer versions not kept by name, or
    /// too old; never true without rules. Newer means committed later (two saves on different hosts may commit in
    /// the other order than they began), and the current version counts as the newest.
    private static func rules(_ retention: VersionRetention, now: Double) -> (String, [SQLArgument]) {
        var rules: [String] = []
        var arguments: [SQLArgument] = []
        if let keepLast = retention.keepLast {
            rules.append(
                """
                (SELECT COUNT(*) FROM file_versions n
                 WHERE n.file_id = f.file_id AND n.id <> f.id AND n.state = 'complete' AND n.kept = 0
                   AND n.retired = 0
                   AND (n.committed_at > f.committed_at OR (n.committed_at = f.committed_at AND n.id > f.id)
                        OR EXISTS (SELECT 1 FROM items c WHERE c.current_version_id = n.id))) >= ?
                """)
            arguments.append(.integer(Int64(keepLast)))
        }
        if let keepFor = retention.keepFor {
            rules.append("f.committed_at <= ?")
            arguments.append(.real(now - keepFor))
        }
        return (rules.isEmpty ? "1 = 0" : rules.joined(separator: " OR "), arguments)
    }

    /// The statements of a switch of `file` from `previous` to `staged` that apply `retention`: the previous
    /// version retired when `staged` coalesces with it (an autosave by the same user within the grace period), and
    /// every other version of the file retired that the rules let go.
    static func retire(
        file: ItemID, staged: StagedVersion, previous: Int64?, now: Double, retention: VersionRetention
    ) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        if let previous, let user = staged.save.userID, staged.save.isAutosave, !staged.save.isExitSave,
            retention.autosaveGracePeriod > 0
        {
            statements.append(
                SQLStatement(
                    """
                    UPDATE file_versions SET retired = 1
                    WHERE id = ? AND is_autosave = 1 AND is_exit_save = 0 AND kept = 0 AND saved_by = ?
                      AND committed_at > ?
                    """, [.integer(previous), .text(user), .real(now - retention.autosaveGracePeriod)]))
        }
        if retention.keepLast != nil || retention.keepFor != nil {
            let (rules, arguments) = rules(retention, now: now)
            // The versions to retire are chosen before any is updated: retiring one changes the others' counts.
            statements.append(
                SQLStatement(
                    """
                    UPDATE file_versions SET retired = 1 WHERE id IN (
                      SELECT f.id FROM file_versions f
                      WHERE f.file_id = ? AND f.id <> ? AND f.state = 'complete' AND f.kept = 0 AND f.retired = 0
                        AND (\(rules)))
                    """, [.text(file.rawValue), .integer(staged.id)] + arguments))
        }
        return statements
    }

    /// The IDs of every complete version of `file`: a deletion reads them before the file's row goes, then discards
    /// each (``ChunkedVersionStore/discardStatements(versions:now:)``).
    package static func versionIDs(of file: ItemID) -> SQLStatement {
        SQLStatement(
            "SELECT id FROM file_versions WHERE file_id = ? AND state = 'complete'", [.text(file.rawValue)],
            columns: [.integer])
    }

    /// What item `file` is: `file` or `container`; fails when it is missing.
    static func kind(of file: ItemID) -> SQLStatement {
        SQLStatement(
            "SELECT kind FROM items WHERE id = ?", [.text(file.rawValue)], columns: [.text],
            expecting: (1, StorageError.notFound(file)))
    }

    /// The versions of `file` that are listed (complete, not retired), last committed first: ID, size, save time,
    /// user, path, autosave, exit save, kept, digest, and 1 for the current one.
    static func list(of file: ItemID) -> SQLStatement {
        SQLStatement(
            """
            SELECT f.id, f.size, f.committed_at, f.saved_by, f.save_path, f.is_autosave, f.is_exit_save, f.kept,
                   f.sha256, CASE WHEN EXISTS (SELECT 1 FROM items i WHERE i.current_version_id = f.id) THEN 1 ELSE 0 END
            FROM file_versions f
            WHERE f.file_id = ? AND f.state = 'complete' AND f.retired = 0
            ORDER BY f.committed_at DESC, f.id DESC
            """, [.text(file.rawValue)],
            columns: [.integer, .integer, .real, .text, .text, .integer, .integer, .integer, .blob, .integer])
    }

    /// Listed version `versionID` of `file`: size, digest and save time; fails when it is not listed.
    static func listed(_ versionID: Int64, of file: ItemID, version: String) -> SQLStatement {
        SQLStatement(
            """
            SELECT size, sha256, committed_at FROM file_versions
            WHERE id = ? AND file_id = ? AND state = 'complete' AND retired = 0
            """, [.integer(versionID), .text(file.rawValue)], columns: [.integer, .blob, .real],
            expecting: (1, StorageError.versionNotFound(version, of: file)))
    }

    /// Marks listed version `versionID` of `file` kept by name or not; fails when it is not listed.
    static func keep(_ versionID: Int64, of file: ItemID, version: String, _ kept: Bool) -> SQLStatement {
        SQLStatement(
            """
            UPDATE file_versions SET kept = ?
            WHERE id = ? AND file_id = ? AND state = 'complete' AND retired = 0 RETURNING 1
            """, [.integer(kept ? 1 : 0), .integer(versionID), .text(file.rawValue)], columns: [.integer],
            expecting: (1, StorageError.versionNotFound(version, of: file)))
    }

    /// Retires listed version `versionID` of `file` unless it is the current one; fails when it is not listed or
    /// became current.
    static func retire(_ versionID: Int64, of file: ItemID, version: String) -> SQLStatement {
        SQLStatement(
            """
            UPDATE file_versions SET retired = 1
            WHERE id = ? AND file_id = ? AND state = 'complete' AND retired = 0
              AND NOT EXISTS (SELECT 1 FROM items WHERE items.current_version_id = file_versions.id)
            RETURNING 1
            """, [.integer(versionID), .text(file.rawValue)], columns: [.integer],
            expecting: (1, StorageError.versionNotFound(version, of: file)))
    }

    /// The versions of the rows of ``list(of:)``, the current one first.
    static func versions(_ rows: [SQLRow], of file: ItemID) throws -> [FileVersion] {
        let versions = try rows.map { row -> FileVersion in
            guard row.count == 10, let id = row[0].integer, let size = row[1].integer, let savedAt = row[2].real else {
                throw StorageError(.corrupt, "The version list of file \(file) is damaged; restore a backup.")
            }
            var sha256: Data?
            if case .blob(let bytes) = row[8] { sha256 = Data(bytes.readableBytesView) }
            let save = SaveContext(
                userID: row[3].text, path: row[4].text.map(SavePath.init(rawValue:)) ?? .unknown,
                isAutosave: row[5].integer == 1, isExitSave: row[6].integer == 1)
            return FileVersion(
                id: String(id), size: size, savedAt: Date(timeIntervalSince1970: savedAt), save: save,
                isKept: row[7].integer == 1, isCurrent: row[9].integer == 1, sha256: sha256)
        }
        return versions.filter(\.isCurrent) + versions.filter { !$0.isCurrent }
    }
}
