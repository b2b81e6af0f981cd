import CFuse3
import Foundation
import Logging
import WOPIStorage

extension FUSEFileSystem {
    /// `rename(2)` flags from `<linux/fs.h>` (not exported to Swift).
    private static let renameNoReplace: UInt32 = 1
    private static let renameExchange: UInt32 = 2

    /// Creates the directory `name` in `parent`, owned by the caller with `permissions`.
    func makeDirectory(
        parent: UInt64, name: String, permissions: mode_t, caller: FUSERequest.Caller
    ) async throws -> fuse_entry_param {
        try checkWritable()
        try FileSystemFailure.checkName(name)
        let parentID = try inodes.requireItem(for: parent)
        defer { directoryCache.invalidate(parentID) }
        let container = try await backend.createContainer(named: name, in: parentID)
        madeEntry(container.id, in: parentID, permissions: permissions, caller: caller)
        return entry(for: .container(container))
    }

    /// Records a new item's mode and owner, and the change of the directory it was made in.
    func madeEntry(_ id: ItemID, in parentID: ItemID, permissions: mode_t, caller: FUSERequest.Caller) {
        let now = configuration.now()
        keptAttributes.created(id, permissions: permissions, owner: caller.user, group: caller.group, at: now)
        changedEntries(of: parentID, at: now)
    }

    /// Records that the entries of the directory `id` changed at `time` (its modification and change times).
    func changedEntries(of id: ItemID, at time: Date) {
        keptTimes.setContainer(id, modified: time)
        keptAttributes.touch(id, isContainer: true, at: time)
    }

    /// Deletes the empty directory `name` (`ENOTDIR` for a file, `ENOTEMPTY` when it has children).
    func removeDirectory(parent: UInt64, name: String) async throws {
        try checkWritable()
        let parentID = try inodes.requireItem(for: parent)
        let item = try await child(named: name, in: parentID)
        guard case .container = item else { throw FileSystemFailure(ENOTDIR, "\"\(name)\" is not a directory.") }
        defer { directoryCache.invalidate(parentID, item.id) }
        try await backend.delete(item.id)
        keptAttributes.forget(item.id)
        changedEntries(of: parentID, at: configuration.now())
    }

    /// Deletes the file `name` (`EISDIR` for a directory). A write session on it drops its content.
    func unlink(parent: UInt64, name: String) async throws {
        try checkWritable()
        let parentID = try inodes.requireItem(for: parent)
        let item = try await child(named: name, in: parentID)
        guard case .file = item else { throw FileSystemFailure(EISDIR, "\"\(name)\" is a directory.") }
        defer { directoryCache.invalidate(parentID) }
        if let session = openFiles.session(for: item.id) {
            session.markUnlinked()
        } else {
            // A file closed just now may still be uploading and holding its lock: delete what it saved.
            await openFiles.finishing(item.id)?.value
        }
        try await backend.delete(item.id)
        keptAttributes.forget(item.id)
        changedEntries(of: parentID, at: configuration.now())
    }

    /// Renames or moves `name` in `parent` to `newName` in `newParent`, with POSIX `rename(2)` semantics.
    ///
    /// An existing target file is replaced atomically with `move(… replacing: true)`: the moved item keeps its
    /// ID and the replaced file (and its ID) is gone. This is what editors' atomic save does (write a temporary
    /// file, rename it over the original), so after such a save the file has the temporary file's ID. An empty
    /// target directory is deleted first. A backend that cannot move between containers gives `EXDEV`, on
    /// which `mv` and file managers copy instead; one that cannot replace within a container (a WOPI host, whose
    /// RenameFile keeps extensions) gets the source's content written into the target, which keeps its ID, and
    /// the source deleted afterwards, so a failure at any step leaves the target whole.
    func rename(parent: UInt64, name: String, newParent: UInt64, newName: String, flags: UInt32) async throws {
        try checkWritable()
        if flags & Self.renameExchange != 0 {
            throw FileSystemFailure(EINVAL, "Exchanging two names is not supported.")
        }
        try FileSystemFailure.checkName(newName)
        let parentID = try inodes.requireItem(for: parent)
        let newParentID = try inodes.requireItem(for: newParent)
        defer { directoryCache.invalidate(parentID, newParentID) }
        let source = try await child(named: name, in: parentID)
        let target = try await backend.child(named: newName, in: newParentID)
        var replacedFile: ItemID?
        if let target {
            if target.id == source.id { return }
            if flags & Self.renameNoReplace != 0 {
                throw FileSystemFailure(EEXIST, "\"\(newName)\" exists and the caller asked not to replace it.")
            }
            switch (source, target) {
            case (.file, .container):
                throw FileSystemFailure(EISDIR, "Cannot replace the directory \"\(newName)\" with a file.")
            case (.container, .file):
                throw FileSystemFailure(ENOTDIR, "Cannot replace the file \"\(newName)\" with a directory.")
            case (.container, .container):
                try await backend.delete(target.id)
            case (.file, .file):
                replacedFile = target.id
            }
        }
        if let replacedFile { openFiles.session(for: replacedFile)?.markUnlinked() }
        let renamedID = try await move(
            source, from: parentID, to: newParentID, newName: newName, replacing: replacedFile)
        let isContainer = if case .container = source { true } else { false }
        if let replacedFile, replacedFile != renamedID { keptAttributes.forget(replacedFile) }
        keptAttributes.moved(source.id, to: renamedID, isContainer: isContainer)
        let now = configuration.now()
        keptAttributes.touch(renamedID, isContainer: isContainer, at: now)
        changedEntries(of: parentID, at: now)
        if newParentID != parentID { changedEntries(of: newParentID, at: now) }
    }

    /// Does the backend's part of ``rename(parent:name:newParent:newName:flags:)``; returns the ID the renamed
    /// item has afterwards (another one where the backend could only copy its content).
    private func move(
        _ source: StorageItem, from parentID: ItemID, to newParentID: ItemID, newName: String,
        replacing replacedFile: ItemID?
    ) async throws -> ItemID {
        if parentID != newParentID {
            _ = try await backend.move(source.id, to: newParentID, newName: newName, replacing: replacedFile != nil)
        } else if let replacedFile {
            do {
                _ = try await backend.move(source.id, to: newParentID, newName: newName, replacing: true)
            } catch let error as StorageError where error.code == .unsupported || error.code == .crossContainerMove {
                // The backend cannot rename over the target (WOPI keeps extensions): the target takes the source's
                // content, keeping its ID as an editor's save should, and only then is the source removed.
                logger.debug("Backend cannot replace on move; writing the content into the target instead")
                try await copyContent(of: source.id, into: replacedFile)
                try await backend.delete(source.id)
                inodes.redirect(inodes.inode(for: source.id), to: replacedFile)
                return replacedFile
            }
        } else {
            do {
                _ = try await backend.rename(source.id, to: newName)
            } catch let error as StorageError where error.code == .unsupported {
                guard case .file = source else { throw error }
                // The backend cannot rename this way (WOPI's RenameFile keeps the extension, and git renames
                // `config.lock` to `config`): the content goes to a new file of that name, then the old one goes.
                logger.debug("Backend cannot rename to this name; copying the content to a new file instead")
                let content = try await backend.readFile(source.id, range: nil)
                let created = try await backend.createFile(
                    named: newName, in: newParentID, content: content.body, overwrite: false)
                try await backend.delete(source.id)
                inodes.redirect(inodes.inode(for: source.id), to: created.id)
                return created.id
            }
        }
        return source.id
    }

    /// Writes the content of file `source` into file `target`: through a private local copy when the backend takes
    /// local files (a WOPI host with incremental transfer then moves only what differs), else as a stream.
    private func copyContent(of source: ItemID, into target: ItemID) async throws {
        guard let transfer = backend as? any LocalFileTransfer else {
            let content = try await backend.readFile(source, range: nil)
            _ = try await backend.writeFile(target, content: content.body, expectedVersion: nil)
            return
        }
        let copy = try CacheFile(directory: configuration.cacheDirectory, prefix: "copy")
        defer { copy.remove() }
        guard let path = copy.path else { return }
        _ = try await transfer.readFile(source, toLocalFile: path) {}
        _ = try await transfer.writeFile(target, fromLocalFile: path, expectedVersion: nil) {}
    }

    /// Lists a directory for `readdir`: `.`, `..` and the children by name; returns the handle.
    func openDirectory(_ inode: UInt64) async throws -> UInt64 {
        let id = try inodes.requireItem(for: inode)
        let container = try await backend.container(id)
        let children = try await backend.children(of: id).sortedByName()
        let parentInode = container.parentID.map { inodes.inode(for: $0) } ?? inode
        var entries = [
            OpenFiles.DirectoryEntry(name: ".", inode: inode, mode: S_IFDIR),
            OpenFiles.DirectoryEntry(name: "..", inode: parentInode, mode: S_IFDIR),
        ]
        for child in children {
            let mode: UInt32
            if case .file = child { mode = S_IFREG } else { mode = S_IFDIR }
            entries.append(.init(name: child.name, inode: inodes.inode(for: child.id), mode: mode))
        }
        return openFiles.addDirectory(entries)
    }
}
