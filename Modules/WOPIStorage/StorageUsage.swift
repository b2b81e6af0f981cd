/// A backend that can say how many bytes a user's files take: what a storage quota counts (`StorageQuota` in
/// `WOPIServer`).
///
/// The count covers each file the user owns, its current version and every earlier version still kept, and counts
/// content once where the backend stores it once: a chunk shared by several versions of the user's files on the
/// chunked backends (SQLite, PostgreSQL), an inode on the file system. Deleted files and versions that garbage
/// collection has still to reclaim are not counted.
public protocol StorageUsage: StorageBackend {
    /// The bytes the files `user` owns take, every kept version included.
    ///
    /// - Throws: ``StorageError`` when the backend cannot be read.
    func storedBytes(ownedBy user: String) async throws -> Int64
}
