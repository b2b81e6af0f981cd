/// A backend that keeps earlier versions of each file's content: every save makes a new version, and the old ones
/// stay readable until ``VersionRetention`` or a user removes them.
///
/// A version is named by the ``FileMetadata/version`` string the content had when it was current, so the
/// version a reader saw is the one it can ask for later. Versions belong to their file: they follow it through
/// renames and moves, and go with it when it is deleted. A backend correct for this protocol passes
/// `VersionConformance` in `WOPIStorageConformance`.
///
/// ``restoreVersion(_:of:expectedVersion:)`` has a default that reads the old content and saves it as a new
/// version, so nothing is overwritten, and a backend that stores content by its chunks stores none twice.
public protocol VersionedStorage: StorageBackend {
    /// The versions of file `id`, newest first; the current version is first.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/notFound`` or ``StorageError/Code/notAFile``.
    func versions(of id: ItemID) async throws -> [FileVersion]

    /// The content of `version` of file `id` in `range` (clamped to the version), streamed; the metadata is the
    /// file's, with the version's size, version string, save time and digest.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/notFound`` when the file or the version is gone.
    func readVersion(_ version: String, of id: ItemID, range: Range<Int64>?) async throws -> FileContent

    /// Removes `version` of file `id`, kept or not.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/notFound`` when it is gone, and
    ///   ``StorageError/Code/unsupported`` for the current version (restore another one first).
    func deleteVersion(_ version: String, of id: ItemID) async throws

    /// Marks `version` of file `id` kept by name (`true`: retention never removes it) or not, and returns it.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/notFound`` when it is gone.
    @discardableResult
    func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) async throws -> FileVersion

    /// Makes the content of `version` the new current content of file `id`, as a new version saved with
    /// ``SavePath/restore`` (by the user of the current ``SaveContext``); every version stays as it was.
    ///
    /// - Parameter expectedVersion: when set, the restore happens only while the file's current version is this one
    ///   (``StorageError/Code/versionMismatch`` otherwise), as in
    ///   ``StorageBackend/writeFile(_:content:expectedVersion:)``.
    /// - Returns: the file's new metadata.
    func restoreVersion(_ version: String, of id: ItemID, expectedVersion: String?) async throws -> FileMetadata
}

extension VersionedStorage {
    /// Restores by streaming the old version into ``StorageBackend/writeFile(_:content:expectedVersion:)`` under a
    /// ``SaveContext`` with ``SavePath/restore``.
    public func restoreVersion(_ version: String, of id: ItemID, expectedVersion: String?) async throws
        -> FileMetadata
    {
        let old = try await readVersion(version, of: id, range: nil)
        var save = SaveContext.recorded
        save.path = .restore
        save.isAutosave = false
        save.isExitSave = false
        return try await SaveContext.$current.withValue(save) {
            try await writeFile(id, content: old.body, expectedVersion: expectedVersion)
        }
    }

    /// The version `version` of file `id`, as ``versions(of:)`` lists it.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/notFound`` when it is gone.
    public func version(_ version: String, of id: ItemID) async throws -> FileVersion {
        guard let found = try await versions(of: id).first(where: { $0.id == version }) else {
            throw StorageError.versionNotFound(version, of: id)
        }
        return found
    }
}
