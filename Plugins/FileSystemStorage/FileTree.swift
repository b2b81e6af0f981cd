import Foundation
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The synchronous engine of ``FileSystemStorage``: resolves IDs to paths and reads and changes the tree.
///
/// Every path is walked from the descriptors of the root and of `users`, held open, one component at a time with
/// `O_NOFOLLOW`, so a symbolic link anywhere (even one swapped in for a directory after it was cached) ends the
/// walk instead of leading out of the root. Methods block; the backend runs them on a thread pool.
final class FileTree: Sendable {
    /// Where a located item is: its path, its parent directory and the item itself, open.
    struct Location {
        /// Components under the storage root: `["users", user, …]`.
        var path: [String]
        var parent: Descriptor
        var entry: Descriptor
        var status: FileStatus
        var id: ItemID

        var name: String { path[path.count - 1] }
        var owner: String { path[1] }
        var isRoot: Bool { path.count == 2 }
        var isDirectory: Bool { status.kind == .directory }
    }

    let rootDirectory: Descriptor
    /// `ROOT/users`, held open like the root: every lookup starts here, which saves an `openat` and a `close`.
    let usersDirectory: Descriptor
    let temporary: Descriptor
    /// `ROOT/.wopikit/versions`: a folder per file with earlier versions (FileTree+Versions.swift).
    let versions: Descriptor
    let lock: TreeLock
    let index = ItemIndex()
    /// Which versions each save and garbage collection keep.
    let retention: VersionRetention
    /// The clock of save times and retention.
    let now: @Sendable () -> Date

    /// Opens (and, if asked, creates) the storage root and its hidden state, and removes temporary files left
    /// by writes that never finished.
    init(
        root: String, createIfMissing: Bool, retention: VersionRetention, now: @escaping @Sendable () -> Date
    ) throws {
        self.retention = retention
        self.now = now
        if createIfMissing {
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        rootDirectory = try Descriptor.open(root, in: nil, flags: O_RDONLY | O_DIRECTORY)
        let state = try Self.makeDirectory(".wopikit", in: rootDirectory)
        temporary = try Self.makeDirectory("tmp", in: state)
        versions = try Self.makeDirectory("versions", in: state)
        usersDirectory = try Self.makeDirectory("users", in: rootDirectory)
        lock = TreeLock(file: try Descriptor.open("lock", in: state, flags: O_RDWR | O_CREAT, mode: 0o600))
        try Self.checkExtendedAttributes(on: state)
        removeAbandonedTemporaryFiles()
    }

    private static func makeDirectory(_ name: String, in parent: Descriptor) throws -> Descriptor {
        if mkdirat(parent.raw, name, 0o755) != 0 && errno != EEXIST {
            throw POSIXFailure(errno: errno, "create directory \"\(name)\"")
        }
        return try Descriptor.openDirectory(name, in: parent)
    }

    private static func checkExtendedAttributes(on directory: Descriptor) throws {
        do {
            try POSIX.setAttribute(POSIX.idAttribute, to: "probe", of: directory)
        } catch let failure as POSIXFailure {
            throw StorageError(
                .unsupported,
                "The storage root's file system does not support user extended attributes (\(failure)); "
                    + "FileSystemStorage keeps item IDs in them. Use ext4, XFS, Btrfs or APFS (or mount with user_xattr)."
            )
        }
    }

    /// Removes temporary files that no live writer holds (a writer keeps an exclusive `flock` on its file);
    /// returns how many.
    @discardableResult
    func removeAbandonedTemporaryFiles() -> Int {
        var removed = 0
        for name in (try? temporary.entryNames()) ?? [] {
            guard let file = try? Descriptor.open(name, in: temporary, flags: O_RDONLY),
                (try? file.advisoryLock(LOCK_EX | LOCK_NB)) != nil
            else { continue }
            if unlinkat(temporary.raw, name, 0) == 0 { removed += 1 }
        }
        return removed
    }

    // MARK: - Resolving

    /// Whether `user` can name a user's root directory.
    static func isValidUser(_ user: String) -> Bool {
        !user.isEmpty && user.utf8.count <= 128 && !user.hasPrefix("-")
            && user.allSatisfy { ItemID.allowedCharacters.contains($0) }
    }

    /// Opens the directory at `path`, one component at a time, never following a symbolic link.
    ///
    /// A path under `users` starts from ``usersDirectory``, open since ``init(root:createIfMissing:)``.
    func openDirectory(_ path: some Collection<String>) throws -> Descriptor {
        var current = rootDirectory
        var components = path[...]
        if components.first == "users" {
            current = usersDirectory
            components = components.dropFirst()
        }
        for component in components {
            current = try Descriptor.openDirectory(component, in: current)
        }
        return current
    }

    /// The item at `path`, or `nil` when nothing usable is there.
    func probe(_ path: [String]) -> Location? {
        guard path.count >= 2, path[0] == "users", Self.isValidUser(path[1]),
            let parent = try? openDirectory(path.dropLast())
        else { return nil }
        return try? open(path[path.count - 1], in: parent, path: path)
    }

    /// Opens the entry `name` of `parent` (a regular file or a directory, never a link) and identifies it.
    ///
    /// - Parameter kind: the entry's kind as the directory listing gave it, which saves a `stat` before the
    ///   `open`; the open entry's own status decides in any case.
    func open(_ name: String, in parent: Descriptor, path: [String], kind: FileStatus.Kind? = nil) throws -> Location? {
        guard let seen = try kind ?? parent.status(of: name)?.kind, seen != .other else { return nil }
        let flags = seen == .directory ? O_RDONLY | O_DIRECTORY : O_RDONLY
        let entry: Descriptor
        do {
            entry = try Descriptor.open(name, in: parent, flags: flags)
        } catch let failure as POSIXFailure where kind != nil && [ENOENT, ELOOP, ENOTDIR].contains(failure.errno) {
            return nil  // removed or replaced since the listing: what a `stat` would have said
        }
        let status = try entry.status()
        guard status.kind != .other else { return nil }
        return Location(path: path, parent: parent, entry: entry, status: status, id: try identify(entry))
    }

    /// The ID stored on an open item, assigning a new one when it has none.
    ///
    /// Assignment uses `XATTR_CREATE`, so when two processes see a new file at once, both end up with the ID
    /// of whichever wrote first.
    func identify(_ entry: Descriptor) throws -> ItemID {
        if let text = try POSIX.attribute(POSIX.idAttribute, of: entry), let id = ItemID(rawValue: text) {
            return id
        }
        let fresh = ItemID.random()
        if try POSIX.setAttribute(POSIX.idAttribute, to: fresh.rawValue, of: entry, create: true) { return fresh }
        if let text = try POSIX.attribute(POSIX.idAttribute, of: entry), let id = ItemID(rawValue: text) {
            return id
        }
        try POSIX.setAttribute(POSIX.idAttribute, to: fresh.rawValue, of: entry)  // was garbage: replace it
        return fresh
    }

    /// Finds the item with `id`: the cached path if the ID there still matches, else after a full rescan.
    func locate(_ id: ItemID) throws -> Location {
        if let location = locateIndexed(id) { return location }
        try rescan()
        if let location = locateIndexed(id) { return location }
        index.forget(id)
        throw StorageError.notFound(id)
    }

    /// The item with `id` at its cached path, or `nil` when it is not there (no rescan): a few `openat`, an
    /// `fstat` and a `fgetxattr` answered from the kernel's caches.
    func locateIndexed(_ id: ItemID) -> Location? {
        guard let path = index[id], let location = probe(path), location.id == id else { return nil }
        return location
    }

    /// Finds a container.
    func locateContainer(_ id: ItemID) throws -> Location {
        let location = try locate(id)
        guard location.isDirectory else {
            throw StorageError(.notAContainer, "Item \(id) is a file, not a container.")
        }
        return location
    }

    /// Finds a file.
    func locateFile(_ id: ItemID) throws -> Location {
        let location = try locate(id)
        guard !location.isDirectory else { throw StorageError(.notAFile, "Item \(id) is a container, not a file.") }
        return location
    }

    /// Walks every user's tree and rebuilds the index from the IDs on disk.
    ///
    /// A second item carrying an ID already seen (a copy made with its attributes, such as `cp -a`) gets a new
    /// ID; the one at the previously known path keeps it.
    func rescan() throws {
        var found: [ItemID: [String]] = [:]
        let users = usersDirectory
        func visit(_ location: Location) throws {
            var id = location.id
            if let earlier = found[id] {
                let keepsEarlier = index[id] != location.path
                let loser = keepsEarlier ? location.entry : (probe(earlier)?.entry ?? location.entry)
                let fresh = ItemID.random()
                try POSIX.setAttribute(POSIX.idAttribute, to: fresh.rawValue, of: loser)
                if keepsEarlier { id = fresh } else { found[fresh] = earlier }
            }
            found[id] = location.path
            guard location.isDirectory else { return }
            for name in try location.entry.entryNames() {
                if let child = try? open(name, in: location.entry, path: location.path + [name]) { try visit(child) }
            }
        }
        for user in try users.entryNames() where Self.isValidUser(user) {
            if let root = try? open(user, in: users, path: ["users", user]), root.isDirectory { try visit(root) }
        }
        index.replaceAll(with: found)
    }

    // MARK: - Describing

    /// The ID of the container holding a located item; `nil` for a root.
    func parentID(of location: Location) throws -> ItemID? {
        location.isRoot ? nil : try identify(location.parent)
    }

    /// The metadata of a located item.
    func describe(_ location: Location, parentID: ItemID?) throws -> StorageItem {
        let modified = Date(timeIntervalSince1970: Double(location.status.modifiedNanoseconds) / 1e9)
        if location.isDirectory {
            return .container(
                ContainerMetadata(
                    id: location.id, name: location.name, parentID: parentID, ownerID: location.owner,
                    lastModified: modified))
        }
        guard let parentID else { throw StorageError(.corrupt, "File \(location.id) has no parent container.") }
        let stamp = ContentStamp(attribute: try POSIX.attribute(POSIX.stampAttribute, of: location.entry))
        let (version, sha256) = ContentStamp.describe(location.status, stamp: stamp)
        return .file(
            FileMetadata(
                id: location.id, name: location.name, parentID: parentID, ownerID: location.owner,
                size: location.status.size, version: version, lastModified: modified, sha256: sha256))
    }

    /// The metadata of a located file.
    func describeFile(_ location: Location) throws -> FileMetadata {
        guard case .file(let file) = try describe(location, parentID: try parentID(of: location)) else {
            throw StorageError(.notAFile, "Item \(location.id) is a container, not a file.")
        }
        return file
    }

    /// The error for `name` being taken in `directory`, naming the item that has it when it is usable.
    func conflict(_ name: String, in directory: Location) -> StorageError {
        let existing = try? open(name, in: directory.entry, path: directory.path + [name])
        return StorageError(
            .nameConflict, "An item named \"\(name)\" already exists in this container; choose another name.",
            conflictingItem: existing?.id)
    }

    /// Checks a new item name and returns the form stored on disk (Unicode NFC).
    static func storedName(_ name: String) throws -> String {
        try StorageName.validate(name)
        return try StorageName.validate(name.precomposedStringWithCanonicalMapping)
    }
}
