/// A backend that moves whole files between itself and local files on its own terms (a remote backend that sends
/// and fetches only the parts that changed, say), besides streaming them through ``StorageBackend``.
///
/// The FUSE mount uses it, when its backend conforms, to load the working copy of a file opened for writing, to
/// upload that copy at close, and to read a file whose earlier content the backend holds locally. Everything else,
/// and every backend that does not conform, goes through ``StorageBackend`` alone.
public protocol LocalFileTransfer: StorageBackend {
    /// Replaces the local file at `path` (renaming a finished file over it: a reader sees the old content or the
    /// new) with the content of file `id`.
    ///
    /// - Parameter progress: called as bytes arrive, so a caller's deadline measures stalls, not file size.
    /// - Returns: the metadata of the version written to `path`.
    func readFile(_ id: ItemID, toLocalFile path: String, progress: @escaping @Sendable () -> Void) async throws
        -> FileMetadata

    /// Stores the content of the local file at `path` as file `id`'s new content, as
    /// ``StorageBackend/writeFile(_:content:expectedVersion:)`` does (atomic, a new version,
    /// ``StorageError/Code/versionMismatch`` when `expectedVersion` is given and no longer current).
    ///
    /// The local file must not change until the call returns; a backend may refuse content that changed under it.
    ///
    /// - Parameter progress: called as bytes leave, so a caller's deadline measures stalls, not file size.
    func writeFile(
        _ id: ItemID, fromLocalFile path: String, expectedVersion: String?,
        progress: @escaping @Sendable () -> Void
    ) async throws -> FileMetadata

    /// Whether ``readFile(_:toLocalFile:progress:)`` of `id` would reuse content held locally from an earlier
    /// transfer, so that reading the whole file that way costs less than streaming it.
    func holdsEarlierContent(of id: ItemID) async -> Bool
}
