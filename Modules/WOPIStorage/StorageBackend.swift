/// Where files and containers live: the one abstraction every part of WOPIKit meets at.
///
/// A backend stores a tree of containers and files per user. Every item has a stable ``ItemID`` that survives
/// edits, renames and moves. Content is streamed in both directions as ``ByteStream``s and every write is
/// atomic: a reader sees the old content or the new, and a failed or interrupted write leaves the old content
/// whole.
///
/// This protocol is open for third-party conformances. A backend is correct when it passes the conformance kit
/// in the `WOPIStorageConformance` library. Methods throw ``StorageError``.
///
/// Names are checked with ``StorageName/validate(_:)``; comparisons between names in one container are exact
/// (byte for byte after Unicode NFC normalisation is up to the backend, and must be documented by it).
///
/// A user's root container cannot be renamed, moved or deleted (``StorageError/Code/unsupported``). An item's
/// ``FileMetadata/ownerID`` is the owner of the root it lives under; moving it into another user's tree changes it.
public protocol StorageBackend: Sendable {
    /// The root container of `user`, created empty on first use.
    ///
    /// - Parameter user: the user's stable ID (ASCII letters and digits).
    func rootContainer(forUser user: String) async throws -> ContainerMetadata

    /// The file or container with this ID.
    func item(_ id: ItemID) async throws -> StorageItem

    /// The immediate children of a container, in no particular order.
    func children(of container: ItemID) async throws -> [StorageItem]

    /// Creates an empty container named `name` in `parent`.
    ///
    /// - Throws: ``StorageError/Code/nameConflict`` when an item of that name exists.
    func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata

    /// Creates a file named `name` in `parent` with the given content, atomically.
    ///
    /// - Parameter overwrite: when `true` and a *file* of that name exists, its content is replaced (it keeps its
    ///   ID); otherwise an existing item of that name is a ``StorageError/Code/nameConflict``.
    func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata

    /// Opens a file for reading.
    ///
    /// - Parameter range: the byte range to read, clamped to the file's size; `nil` reads everything.
    /// - Returns: the metadata of the version being read and its content. The stream reads that version even
    ///   if the file is replaced while it is being read.
    func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent

    /// Replaces a file's content atomically and gives it a new version.
    ///
    /// - Parameter expectedVersion: when given, the write happens only if the file is still at that version,
    ///   otherwise it fails with ``StorageError/Code/versionMismatch`` and nothing changes.
    func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata

    /// Renames an item in place, keeping its ID.
    ///
    /// - Throws: ``StorageError/Code/nameConflict`` when a sibling has that name.
    func rename(_ id: ItemID, to newName: String) async throws -> StorageItem

    /// Moves an item to another container, optionally renaming it, keeping its ID.
    ///
    /// - Parameter replacing: when `true` and a *file* named like the target exists there, the moved file
    ///   takes its place atomically and the old one is deleted (POSIX `rename` semantics for files).
    /// - Throws: ``StorageError/Code/crossContainerMove`` when the backend cannot move between containers,
    ///   ``StorageError/Code/invalidName`` when a container would move into itself or a descendant.
    func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws -> StorageItem

    /// Deletes a file, or an empty container.
    ///
    /// - Throws: ``StorageError/Code/notEmpty`` for a container that still has children.
    func delete(_ id: ItemID) async throws
}

extension StorageBackend {
    /// The file with this ID.
    ///
    /// - Throws: ``StorageError/Code/notAFile`` when the ID names a container.
    public func file(_ id: ItemID) async throws -> FileMetadata {
        guard case .file(let file) = try await item(id) else {
            throw StorageError(.notAFile, "Item \(id) is a container, not a file.")
        }
        return file
    }

    /// The container with this ID.
    ///
    /// - Throws: ``StorageError/Code/notAContainer`` when the ID names a file.
    public func container(_ id: ItemID) async throws -> ContainerMetadata {
        guard case .container(let container) = try await item(id) else {
            throw StorageError(.notAContainer, "Item \(id) is a file, not a container.")
        }
        return container
    }

    /// Reads a whole file.
    public func readFile(_ id: ItemID) async throws -> FileContent {
        try await readFile(id, range: nil)
    }

    /// The containers above an item, root first and the direct parent last; empty for a root.
    public func ancestors(of id: ItemID) async throws -> [ContainerMetadata] {
        var result: [ContainerMetadata] = []
        var next = try await item(id).parentID
        while let parentID = next {
            let parent = try await container(parentID)
            result.append(parent)
            next = parent.parentID
            if result.count > 4096 {
                throw StorageError(.corrupt, "The ancestry of \(id) does not end in a root; the tree has a cycle.")
            }
        }
        return result.reversed()
    }

    /// The child of `container` named exactly `name`, if any.
    public func child(named name: String, in container: ItemID) async throws -> StorageItem? {
        try await children(of: container).first { $0.name == name }
    }
}
