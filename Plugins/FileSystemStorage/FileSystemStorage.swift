public import Foundation
import NIOCore
public import NIOPosix
public import WOPIStorage

/// A ``StorageBackend`` over a directory tree: files are ordinary files that a person can see and edit.
///
/// ## Layout
/// ```
/// ROOT/users/<user>/…   each user's tree: real directories and files with their real names
/// ROOT/.wopikit/lock    flock(2)-ed while a change is committed (serialises processes)
/// ROOT/.wopikit/tmp/    content being written, renamed into place when complete
/// ROOT/.wopikit/versions/<file ID>/<version>   earlier versions: the replaced files, hard-linked
/// ```
/// Every file and directory carries its ``ItemID`` in the extended attribute `user.wopikit.id`, so the ID follows
/// the item through renames and moves done by anyone (a shell's `mv` included). Files and directories created by
/// other programs get an ID the first time the backend sees them. An in-memory index from ID to path is only a
/// hint: each use verifies the ID at the cached path, and a miss rescans the tree, so changes made by other
/// processes, including other `FileSystemStorage` instances on the same root, are always seen.
///
/// ## Versions and digests
/// A write through the backend records a random version token, the size, the modification time and the SHA-256
/// in `user.wopikit.content`. That record is trusted only while the file's size and modification time still match;
/// after an edit by another program the version is derived from the modification time and size, and the SHA-256 is
/// `nil`, so a version never claims content it does not have.
///
/// Each save through the backend also keeps the content it replaces as an earlier version (``VersionedStorage``):
/// the replaced file is hard-linked into `.wopikit/versions/<file ID>/` just before the new one is renamed over it,
/// so nothing is copied, and the version carries its stamp, who saved it through which path
/// (`user.wopikit.save`) and whether a user kept it (`user.wopikit.kept`). ``Configuration/versionRetention``
/// decides which stay; every version is a whole file, so versions of a large file cost their full size (the
/// chunked backends share unchanged chunks instead). An edit by another program is not a save: it makes no
/// version, and the content it edits in place is the current version's.
///
/// ## What is atomic, and crashes
/// Content streams into a temporary file in `.wopikit/tmp` (on the same file system), is flushed with `fsync`,
/// gets its ID and stamp, and then replaces the target with `rename(2)` (a new file is put in place with
/// `link(2)`, which never replaces anything). A reader sees the old content or the new, never a mix; an open read
/// keeps reading the version it opened. A crash or an interrupted body leaves the old file whole; the leftover
/// temporary file is removed when the next instance opens the root (files still being written by a live process
/// are kept, because their writer holds a `flock` on them). Renames and moves are single `rename(2)` calls;
/// without `replacing` they use `RENAME_NOREPLACE`. Changes are committed under an exclusive `flock` on
/// `.wopikit/lock`, so several processes can share a root; conditional writes (`expectedVersion`) are checked
/// under that lock.
///
/// ## Safety
/// Paths are walked one component at a time from the root's descriptor with `O_NOFOLLOW`, so symbolic links are
/// never followed: they, devices, FIFOs and sockets are not listed and cannot be reached by ID. Names are checked
/// with ``StorageName/validate(_:)``. User IDs must be ASCII letters, digits, `-` and `_`.
///
/// ## Unicode
/// New names (create, rename, move) are stored in Unicode NFC, the form Office and most systems send, so that one
/// visible name is one file. Names already on disk are kept byte for byte, and two names that differ only in
/// normalisation (made by other programs) are two items. Names that are not valid UTF-8 are not listed.
///
/// ## Limits
/// Needs a file system with user extended attributes (ext4, XFS, Btrfs, APFS). Looking up an ID that is not cached
/// (after a restart, a move by another program, or for a deleted item) walks the whole tree once. A program that
/// replaces a file by writing a new one and renaming it over the old one gives it a new ID. Blocking file
/// system calls run on a `NIOThreadPool`.
public final class FileSystemStorage: StorageBackend {
    /// Options for a ``FileSystemStorage``.
    public struct Configuration: Sendable {
        /// The thread pool that runs blocking file system calls.
        public var threadPool: NIOThreadPool
        /// Whether to create the root directory when it does not exist.
        public var createRootIfMissing: Bool
        /// Which earlier versions each save and ``collectGarbage()`` keep (``VersionedStorage``); every process
        /// on one root should use the same.
        public var versionRetention: VersionRetention
        /// The clock of save times and retention (injected in tests).
        public var now: @Sendable () -> Date

        /// Creates a configuration.
        public init(
            threadPool: NIOThreadPool = .singleton, createRootIfMissing: Bool = true,
            versionRetention: VersionRetention = .standard, now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.threadPool = threadPool
            self.createRootIfMissing = createRootIfMissing
            self.versionRetention = versionRetention
            self.now = now
        }
    }

    /// The storage root directory.
    public let root: URL
    let tree: FileTree
    let pool: NIOThreadPool

    /// Opens a storage root, creating its layout as needed and removing abandoned temporary files.
    ///
    /// - Throws: ``StorageError/Code/unsupported`` when the file system has no user extended attributes,
    ///   ``StorageError/Code/io`` when the directory cannot be opened or created.
    public init(root: URL, configuration: Configuration = Configuration()) throws {
        self.root = root
        self.pool = configuration.threadPool
        do {
            tree = try FileTree(
                root: root.path, createIfMissing: configuration.createRootIfMissing,
                retention: configuration.versionRetention, now: configuration.now)
        } catch let failure as POSIXFailure {
            throw StorageError(failure, "Opening the storage root \(root.path)")
        }
    }

    /// Runs blocking work on the thread pool, turning system call failures into ``StorageError``s.
    func blocking<T: Sendable>(_ what: @autoclosure () -> String, _ body: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        try await pool.runBlocking(what(), body)
    }

    public func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        try await blocking("Opening the root of \(user)") { [tree] in try tree.rootContainer(forUser: user) }
    }

    public func item(_ id: ItemID) async throws -> StorageItem {
        // An item at its cached path is described from the kernel's caches, where the request runs
        // (Docs/architecture.md, "Short metadata reads run where the request runs"); an unknown one rescans the
        // tree, on the pool.
        do {
            if let location = tree.locateIndexed(id) {
                return try tree.describe(location, parentID: try tree.parentID(of: location))
            }
        } catch let failure as POSIXFailure {
            throw StorageError(failure, "Reading item \(id)")
        }
        return try await blocking("Reading item \(id)") { [tree] in
            let location = try tree.locate(id)
            return try tree.describe(location, parentID: try tree.parentID(of: location))
        }
    }

    public func children(of container: ItemID) async throws -> [StorageItem] {
        try await blocking("Listing container \(container)") { [tree] in try tree.children(of: container) }
    }

    public func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        try await blocking("Creating container \"\(name)\"") { [tree] in
            try tree.createContainer(named: name, in: parent)
        }
    }

    public func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
        try await blocking("Renaming item \(id)") { [tree] in
            try tree.move(id, to: nil, newName: newName, replacing: false)
        }
    }

    public func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws
        -> StorageItem
    {
        try await blocking("Moving item \(id)") { [tree] in
            try tree.move(id, to: newParent, newName: newName, replacing: replacing)
        }
    }

    public func delete(_ id: ItemID) async throws {
        try await blocking("Deleting item \(id)") { [tree] in try tree.delete(id) }
    }
}
