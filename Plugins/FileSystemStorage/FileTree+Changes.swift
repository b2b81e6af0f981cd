import Foundation
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileTree {
    /// The root directory of `user`, created on first use.
    func rootContainer(forUser user: String) throws -> ContainerMetadata {
        guard Self.isValidUser(user) else {
            throw StorageError(
                .invalidName, "The user ID \"\(user)\" cannot name a root; use ASCII letters and digits.")
        }
        let users = usersDirectory
        if mkdirat(users.raw, user, 0o755) != 0 && errno != EEXIST {
            throw POSIXFailure(errno: errno, "create the root of \(user)")
        }
        guard let root = try open(user, in: users, path: ["users", user]), root.isDirectory else {
            throw StorageError(
                .corrupt, "users/\(user) under the storage root is not a directory; move it away to use this user.")
        }
        index.record(root.id, at: root.path)
        guard case .container(let container) = try describe(root, parentID: nil) else { fatalError("unreachable") }
        return container
    }

    /// The usable entries of a container (regular files and directories; links and devices are left out).
    func children(of id: ItemID) throws -> [StorageItem] {
        let container = try locateContainer(id)
        // One pass over the listing; its entry kinds save a `stat` per child.
        return try container.entry.entries().compactMap { name, kind in
            guard let child = try open(name, in: container.entry, path: container.path + [name], kind: kind) else {
                return nil
            }
            index.record(child.id, at: child.path)
            return try describe(child, parentID: container.id)
        }
    }

    func createContainer(named name: String, in parentID: ItemID) throws -> ContainerMetadata {
        let name = try Self.storedName(name)
        return try lock.withLock {
            let parent = try locateContainer(parentID)
            guard mkdirat(parent.entry.raw, name, 0o755) == 0 else {
                if errno == EEXIST { throw conflict(name, in: parent) }
                throw POSIXFailure(errno: errno, "create directory \"\(name)\"")
            }
            guard let created = try open(name, in: parent.entry, path: parent.path + [name]) else {
                throw StorageError(.io, "The new directory \"\(name)\" vanished while it was being created.")
            }
            index.record(created.id, at: created.path)
            try? parent.entry.sync()
            guard case .container(let container) = try describe(created, parentID: parent.id) else {
                fatalError("unreachable")
            }
            return container
        }
    }

    /// Puts a finished temporary file in place of file `id`, if it is still at `expectedVersion`, as `save`.
    func commitWrite(
        _ temporary: TemporaryFile, stamp: ContentStamp, to id: ItemID, expectedVersion: String?, save: SaveContext
    ) throws -> FileMetadata {
        try lock.withLock {
            let target = try locateFile(id)
            let current = try describeFile(target)
            if let expectedVersion, expectedVersion != current.version {
                throw StorageError(
                    .versionMismatch, "File \(id) changed meanwhile (now at version \(current.version)); reload it.",
                    currentVersion: current.version)
            }
            try replace(target, with: temporary, save: save)
            var written = current
            written.size = stamp.size
            written.version = stamp.token
            written.sha256 = stamp.sha256
            written.lastModified = Date(timeIntervalSince1970: Double(stamp.modifiedNanoseconds) / 1e9)
            return written
        }
    }

    /// Puts a finished temporary file into `parentID` as `name`, as `save`.
    func commitCreate(
        _ temporary: TemporaryFile, stamp: ContentStamp, named name: String, in parentID: ItemID, overwrite: Bool,
        save: SaveContext
    ) throws -> FileMetadata {
        try lock.withLock {
            let parent = try locateContainer(parentID)
            let id: ItemID
            if let existing = try parent.entry.status(of: name) {
                guard overwrite, existing.kind == .file,
                    let target = try open(name, in: parent.entry, path: parent.path + [name])
                else { throw conflict(name, in: parent) }
                id = target.id
                try replace(target, with: temporary, save: save)
            } else {
                id = .random()
                try recordSave(save, of: temporary, replacing: nil)
                try POSIX.setAttribute(POSIX.idAttribute, to: id.rawValue, of: temporary.descriptor)
                // link(2) never replaces: a racing creator outside WOPIKit makes it fail with EEXIST.
                guard linkat(self.temporary.raw, temporary.name, parent.entry.raw, name, 0) == 0 else {
                    if errno == EEXIST { throw conflict(name, in: parent) }
                    throw POSIXFailure(errno: errno, "create \"\(name)\"")
                }
                temporary.markCommitted()
                _ = unlinkat(self.temporary.raw, temporary.name, 0)
                try? parent.entry.sync()
            }
            index.record(id, at: parent.path + [name])
            return FileMetadata(
                id: id, name: name, parentID: parent.id, ownerID: parent.owner, size: stamp.size,
                version: stamp.token,
                lastModified: Date(timeIntervalSince1970: Double(stamp.modifiedNanoseconds) / 1e9),
                sha256: stamp.sha256)
        }
    }

    /// Atomically replaces a located file by a temporary one that takes over its ID and permissions, keeping the
    /// replaced content as an earlier version (``recordSave(_:of:replacing:)``) under ``retention``.
    private func replace(_ target: Location, with temporary: TemporaryFile, save: SaveContext) throws {
        try POSIX.setAttribute(POSIX.idAttribute, to: target.id.rawValue, of: temporary.descriptor)
        _ = fchmod(temporary.descriptor.raw, target.status.permissions)
        try recordSave(save, of: temporary, replacing: target)
        try POSIX.rename(temporary.name, in: self.temporary, to: target.name, in: target.parent)
        temporary.markCommitted()
        try? target.parent.sync()
        // The save is committed: a version retention could not remove now waits for garbage collection.
        if let replaced = probe(target.path), replaced.id == target.id { _ = try? applyRetention(to: replaced) }
    }

    func move(_ id: ItemID, to newParentID: ItemID?, newName: String?, replacing: Bool) throws -> StorageItem {
        let name = try newName.map(Self.storedName)
        return try lock.withLock {
            let source = try locate(id)
            guard !source.isRoot else {
                throw StorageError(.unsupported, "A root container cannot be moved or renamed.")
            }
            let target = try newParentID.map(locateContainer) ?? locateContainer(try identify(source.parent))
            let name = name ?? source.name
            if source.isDirectory && target.path.starts(with: source.path) {
                throw StorageError(.invalidName, "A container cannot be moved into itself or one of its descendants.")
            }
            let newPath = target.path + [name]
            if newPath != source.path {
                try moveEntry(source, to: target, as: name, replacing: replacing)
                index.move(from: source.path, to: newPath)
            }
            guard let moved = probe(newPath), moved.id == id else {
                throw StorageError(.io, "Item \(id) was changed by another program while it was being moved.")
            }
            return try describe(moved, parentID: target.id)
        }
    }

    private func moveEntry(_ source: Location, to target: Location, as name: String, replacing: Bool) throws {
        do {
            if let existing = try target.entry.status(of: name) {
                guard replacing, existing.kind == .file, !source.isDirectory else { throw conflict(name, in: target) }
                try POSIX.rename(source.name, in: source.parent, to: name, in: target.entry)
            } else {
                try POSIX.renameNoReplace(source.name, in: source.parent, to: name, in: target.entry)
            }
        } catch let failure as POSIXFailure where failure.errno == EEXIST || failure.errno == ENOTEMPTY {
            throw conflict(name, in: target)
        } catch let failure as POSIXFailure where failure.errno == EXDEV {
            throw StorageError(
                .crossContainerMove, "The target is on another file system; copy the item and delete the original.",
                underlying: failure)
        }
        try? source.parent.sync()
        try? target.entry.sync()
    }

    func delete(_ id: ItemID) throws {
        try lock.withLock {
            let location = try locate(id)
            guard !location.isRoot else { throw StorageError(.unsupported, "A root container cannot be deleted.") }
            guard unlinkat(location.parent.raw, location.name, location.isDirectory ? AT_REMOVEDIR : 0) == 0 else {
                if errno == ENOTEMPTY || errno == EEXIST {
                    throw StorageError(
                        .notEmpty,
                        "Container \(id) is not empty; delete its children first (it may hold entries that are not "
                            + "shown, such as symbolic links).")
                }
                throw POSIXFailure(errno: errno, "delete \"\(location.name)\"")
            }
            index.forget(id)
            try? location.parent.sync()
            if !location.isDirectory { removeVersions(of: id) }
        }
    }
}
