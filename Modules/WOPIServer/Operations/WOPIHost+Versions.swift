import WOPIHTTPEdge
public import WOPIStorage

extension WOPIHost {
    /// The host's storage as a ``VersionedStorage``, or a 501 for a backend that keeps no versions.
    var versionedStorage: any VersionedStorage {
        get throws {
            guard let versioned = storage as? any VersionedStorage else {
                throw WOPIHTTPError.notImplemented("This host's storage keeps no earlier versions of files.")
            }
            return versioned
        }
    }

    /// The versions of file `id`, the current one first, for `user`, who must be able to see it.
    ///
    /// - Throws: 404 when the user may not see the file, 501 when the storage keeps no versions.
    public func versions(of id: ItemID, for user: WOPIUser) async throws -> [FileVersion] {
        guard case .file = try await item(id, visibleTo: user).item else { throw StorageError.notFound(id) }
        return try await versionedStorage.versions(of: id)
    }

    /// The content of `version` of file `id` in `range`, for `user`, who must be able to read the file
    /// (``ItemAction/read``).
    public func readVersion(_ version: String, of id: ItemID, range: Range<Int64>? = nil, for user: WOPIUser)
        async throws -> FileContent
    {
        guard case .file = try await item(id, readableBy: user).item else { throw StorageError.notFound(id) }
        return try await versionedStorage.readVersion(version, of: id, range: range)
    }

    /// Restores `version` of file `id` for `user`: its content becomes a new current version, saved as
    /// ``SavePath/restore``. It is a save like any other: the user needs write access, every ``ChangeGuard`` sees
    /// ``ContentChange/putFile(_:_:)`` first, and a file under a WOPI lock (an editor has it open) is not restored
    /// (409 with the current lock: the editor saves and closes first), unless the restore comes from the page of an
    /// `editingSession` that is still open on the file (``editingSessionOpened(file:session:until:)``), whose editor
    /// has saved and reloads for it: Collabora Online's `Host_VersionRestore` handshake. The lock then stays the
    /// editor's.
    ///
    /// - Throws: 404, 401, a guard's ``ContentVeto``, 409 for a lock, and what the storage throws.
    public func restoreVersion(
        _ version: String, of id: ItemID, for user: WOPIUser, editingSession: String? = nil
    ) async throws -> FileMetadata {
        let versioned = try versionedStorage
        let file = try await storage.file(id)
        let old = try await versioned.version(version, of: id)
        try await authorize(.putFile(file, PutFileDetails(size: old.size)), by: user)
        let lock = try await locks.lock(on: id)
        if let lock {
            let acknowledged =
                if let editingSession { await editingSessions.isOpen(id, session: editingSession, now: now()) } else {
                    false
                }
            guard acknowledged else {
                throw WOPIHTTPError.lockConflict(
                    current: lock.id, reason: "The file is open in an editor; restore it once the editor closed it.")
            }
        }
        let restored = try await SaveContext.$current.withValue(SaveContext(userID: user.id, path: .restore)) {
            try await versioned.restoreVersion(version, of: id, expectedVersion: file.version)
        }
        metrics.versionChanged("restore")
        await audit(
            AuditEvent(
                .versionRestore, at: now(), userID: user.id, itemID: id.rawValue,
                details: ["version": version, "newVersion": restored.version, "underEditorLock": "\(lock != nil)"]))
        return restored
    }

    /// Marks `version` of file `id` kept by name (or not) for `user`, who needs write access to the file.
    @discardableResult
    public func keepVersion(_ version: String, of id: ItemID, _ kept: Bool = true, for user: WOPIUser) async throws
        -> FileVersion
    {
        let versioned = try versionedStorage
        _ = try await authorize(.write, on: .file(try await storage.file(id)), by: user)
        return try await versioned.keepVersion(version, of: id, kept)
    }

    /// Deletes `version` of file `id` for `user`, who needs write access to the file; the current version cannot be
    /// deleted.
    public func deleteVersion(_ version: String, of id: ItemID, for user: WOPIUser) async throws {
        let versioned = try versionedStorage
        _ = try await authorize(.write, on: .file(try await storage.file(id)), by: user)
        try await versioned.deleteVersion(version, of: id)
        metrics.versionChanged("delete")
        await audit(
            AuditEvent(.versionDelete, at: now(), userID: user.id, itemID: id.rawValue, details: ["version": version]))
    }
}
