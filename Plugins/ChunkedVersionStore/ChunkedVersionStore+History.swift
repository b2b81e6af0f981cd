import Foundation
import NIOCore
package import WOPIStorage

extension ChunkedVersionStore {
    // MARK: History

    /// The versions of file `id`, the current one first, then newest first (`VersionedStorage.versions(of:)`).
    package func versions(of id: ItemID) async throws -> [FileVersion] {
        let rows = try await dialect.write(
            "list the versions of file \(id)", durability: .configured,
            [VersionHistorySQL.kind(of: id), VersionHistorySQL.list(of: id)])
        try Self.ensureFile(rows[0], id)
        return try VersionHistorySQL.versions(rows[1], of: id)
    }

    /// The content of `version` of `file` in `range` (clamped to the version), read under a lease taken in the
    /// transaction that finds the version; the metadata is `file`'s with the version's size, digest and time.
    package func readVersion(_ version: String, of file: FileMetadata, range: Range<Int64>?) async throws
        -> FileContent
    {
        guard let versionID = VersionSQL.versionID(version) else {
            throw StorageError.versionNotFound(version, of: file.id)
        }
        let expiry = configuration.timestamp + configuration.readLeaseDuration
        let opening = VersionOpening(
            versionID: versionID, expiresAt: expiry,
            statements: [
                VersionSQL.layout(of: versionID, file: file.id), VersionSQL.takeLease(on: versionID, expiry: expiry),
            ])
        let rows = try await dialect.write(
            "open version \(version) of file \(file.id) for reading", durability: .configured,
            [VersionHistorySQL.kind(of: file.id), VersionHistorySQL.listed(versionID, of: file.id, version: version)]
                + opening.statements)
        try Self.ensureFile(rows[0], file.id)
        guard let listed = rows[1].first, listed.count == 3, let size = listed[0].integer, let savedAt = listed[2].real
        else { throw StorageErrors.missingRows }
        var metadata = file
        metadata.size = size
        metadata.version = version
        metadata.lastModified = Date(timeIntervalSince1970: savedAt)
        if case .blob(let digest) = listed[1] {
            metadata.sha256 = Data(digest.readableBytesView)
        } else {
            metadata.sha256 = nil
        }
        return try await content(of: metadata, range: range, lease: try opening.lease(from: Array(rows[2...])))
    }

    /// Removes `version` of file `id`: retired at once, and deleted with the content only it holds unless a reader
    /// holds it (garbage collection deletes it then).
    package func deleteVersion(_ version: String, of id: ItemID) async throws {
        let listed = try await versions(of: id).first { $0.id == version }
        guard let listed, let versionID = VersionSQL.versionID(version) else {
            throw StorageError.versionNotFound(version, of: id)
        }
        guard !listed.isCurrent else { throw StorageError.currentVersionKept(version, of: id) }
        _ = try await dialect.write(
            "delete version \(version) of file \(id)", durability: .configured,
            [VersionHistorySQL.retire(versionID, of: id, version: version)]
                + discardStatements(version: versionID, now: configuration.timestamp))
    }

    /// Marks `version` of file `id` kept by name, or not, and returns it.
    package func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) async throws -> FileVersion {
        guard let versionID = VersionSQL.versionID(version) else { throw StorageError.versionNotFound(version, of: id) }
        let rows = try await dialect.write(
            "keep version \(version) of file \(id)", durability: .configured,
            [
                VersionHistorySQL.kind(of: id), VersionHistorySQL.keep(versionID, of: id, version: version, kept),
                VersionHistorySQL.list(of: id),
            ])
        try Self.ensureFile(rows[0], id)
        guard let updated = try VersionHistorySQL.versions(rows[2], of: id).first(where: { $0.id == version }) else {
            throw StorageError.versionNotFound(version, of: id)
        }
        return updated
    }

    /// Throws when the rows of ``VersionHistorySQL/kind(of:)`` name a container.
    private static func ensureFile(_ rows: [SQLRow], _ id: ItemID) throws {
        guard rows.first?.first?.text == "file" else {
            throw StorageError(.notAFile, "Item \(id) is a container, not a file.")
        }
    }
}
