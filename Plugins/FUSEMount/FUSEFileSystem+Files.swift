import CFuse3
import Foundation
import Logging
import NIOCore
import WOPIStorage

extension FUSEFileSystem {
    /// Opens a file; for writing this joins or starts its ``WriteSession`` (lock, download). Returns the handle.
    func open(_ inode: UInt64, flags: Int32) async throws -> UInt64 {
        let id = try inodes.requireItem(for: inode)
        guard flags & O_ACCMODE != O_RDONLY else {
            let reader = StreamingReader(backend: backend, itemID: id, cacheDirectory: configuration.cacheDirectory)
            return openFiles.add(.init(itemID: id, session: nil, reader: reader))
        }
        try checkWritable()
        let file = try await backend.file(id)
        let truncating = flags & O_TRUNC != 0
        let session = try await joinSession(for: file, preparation: truncating ? .truncate : .download)
        if truncating {
            do {
                try session.truncate(to: 0)
            } catch {
                leave(session)
                throw error
            }
        }
        return openFiles.add(.init(itemID: id, session: session))
    }

    /// Creates and opens the file `name` in `parent`; returns its entry and handle.
    ///
    /// Without `O_EXCL`, a file of that name that appeared meanwhile is opened instead, as POSIX requires.
    func create(
        parent: UInt64, name: String, flags: Int32, permissions: mode_t, caller: FUSERequest.Caller
    ) async throws -> (fuse_entry_param, UInt64) {
        try checkWritable()
        try FileSystemFailure.checkName(name)
        let parentID = try inodes.requireItem(for: parent)
        defer { directoryCache.invalidate(parentID) }
        let file: FileMetadata
        let preparation: WriteSession.Preparation
        do {
            file = try await backend.createFile(named: name, in: parentID, content: .empty, overwrite: false)
            preparation = .created(file)
            madeEntry(file.id, in: parentID, permissions: permissions, caller: caller)
        } catch let error as StorageError where error.code == .nameConflict && flags & O_EXCL == 0 {
            guard case .file(let existing) = try await child(named: name, in: parentID) else {
                throw FileSystemFailure(EISDIR, "\"\(name)\" is a directory.")
            }
            file = existing
            preparation = flags & O_TRUNC != 0 ? .truncate : .download
        }
        var session: WriteSession?
        if flags & O_ACCMODE != O_RDONLY {
            let joined = try await joinSession(for: file, preparation: preparation)
            session = joined
            if case .truncate = preparation {
                do {
                    try joined.truncate(to: 0)
                } catch {
                    leave(joined)
                    throw error
                }
            }
        }
        let handle = openFiles.add(.init(itemID: file.id, session: session))
        return (entry(for: .file(file)), handle)
    }

    /// Joins the write session of `file` (starting one if needed) and waits until it is ready.
    func joinSession(for file: FileMetadata, preparation: WriteSession.Preparation) async throws -> WriteSession {
        let environment = environment
        let (session, _) = try openFiles.joinSession(for: file.id) { previous in
            let session = try WriteSession(itemID: file.id, name: file.name, environment: environment)
            session.start(preparation, after: previous)
            return session
        }
        do {
            try await session.waitUntilReady()
        } catch {
            openFiles.detach(session)
            leave(session)
            throw error
        }
        return session
    }

    /// Leaves a write session; the last user finishes it in the background.
    func leave(_ session: WriteSession) {
        if openFiles.leaveSession(session) { openFiles.finishInBackground(session) }
    }

    /// Reads from the local working copy when the file is open for writing here; `nil` when it is not.
    func readLocally(_ inode: UInt64, offset: Int64, count: Int) throws -> [UInt8]? {
        guard let id = inodes.item(for: inode), let session = openFiles.session(for: id), session.isReady else {
            return nil
        }
        return try session.read(at: offset, count: count)
    }

    /// Reads at most `count` bytes from the backend: through the handle's ``StreamingReader`` when it has one,
    /// else as one ranged `readFile(range:)`.
    func readRemotely(
        _ inode: UInt64, handle: UInt64, offset: Int64, count: Int, watchdog: Watchdog
    ) async throws -> [UInt8] {
        let id = try inodes.requireItem(for: inode)
        if let reader = openFiles.handle(handle)?.reader {
            return try await reader.read(
                at: offset, count: count, generation: openFiles.generation(of: id), progress: { watchdog.touch() })
        }
        let content = try await backend.readFile(id, range: offset..<(offset + Int64(count)))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for try await chunk in content.body {
            bytes.append(contentsOf: chunk.readableBytesView.prefix(count - bytes.count))
            watchdog.touch()
            if bytes.count >= count { break }
        }
        return bytes
    }

    /// Writes to the working copy of a handle opened for writing (local disk only).
    func write(handle: UInt64, bytes: UnsafeRawBufferPointer, offset: Int64) throws {
        guard let session = openFiles.handle(handle)?.session else {
            throw FileSystemFailure(EBADF, "Handle \(handle) is not open for writing.")
        }
        try session.write(bytes, at: offset)
        keptTimes.forget(session.itemID)
    }

    /// Uploads local changes of a handle's file (`flush` on every close, with `closing`, and `fsync`).
    ///
    /// A close that finds the working copy of a file opened with `O_TRUNC` still empty uploads nothing: that is
    /// the shell's `cmd > file`, which opens the file and closes that descriptor (keeping a duplicate) before
    /// `cmd` writes. Uploading the empty copy would replace the file for a moment and leave the host nothing to
    /// reuse for the upload that follows. If nothing is written, the last release uploads it.
    ///
    /// - Throws: `EIO` after a conflict (the local version went to a conflict copy), the upload's error otherwise.
    func flush(handle: UInt64, closing: Bool = false) async throws {
        guard let session = openFiles.handle(handle)?.session else { return }
        if closing, session.isEmptyAfterTruncation { return }
        try await session.upload()
    }

    /// Closes a handle; the last close of a write session uploads, unlocks and cleans up in the background.
    func release(handle: UInt64) {
        if let session = openFiles.removeHandle(handle)?.session { leave(session) }
    }

    /// Applies `setattr`: a new size truncates or extends (through a short-lived write session when the file is
    /// not open for writing); a new modification time is kept by the mount (``KeptTimes``), since backends store
    /// none, and so is a new access time (``KeptAttributes``); a new mode, owner or group is kept by the mount (``KeptAttributes``) after the kernel checked that
    /// the caller may make it (`default_permissions`: only root gives files away).
    func setAttributes(
        _ inode: UInt64, size: Int64?, modified: Date? = nil, accessed: Date? = nil, permissions: mode_t? = nil,
        owner: uid_t? = nil, group: gid_t? = nil, handle: UInt64?
    ) async throws -> stat {
        let id = try inodes.requireItem(for: inode)
        if let size {
            try checkWritable()
            keptTimes.forget(id)
            if let handle, let session = openFiles.handle(handle)?.session {
                try session.truncate(to: size)
            } else if let session = openFiles.session(for: id), session.isReady {
                try session.truncate(to: size)
            } else {
                let file = try await backend.file(id)
                let session = try await joinSession(for: file, preparation: size == 0 ? .truncate : .download)
                defer { leave(session) }
                try session.truncate(to: size)
                try await session.upload()
            }
        }
        let item = try await backend.item(id)
        if let modified {
            keptTimes.set(modified, for: item, pendingUpload: openFiles.session(for: id) != nil)
        }
        if size != nil || modified != nil || accessed != nil || permissions != nil || owner != nil || group != nil {
            let isContainer = if case .container = item { true } else { false }
            keptAttributes.change(
                id, isContainer: isContainer, permissions: permissions, owner: owner, group: group,
                accessed: accessed, at: configuration.now())
        }
        return attributes(of: item)
    }

    /// Uploads the changes of every file open for writing (before unmounting); each upload is bounded.
    func flushAll() async {
        await withTaskGroup(of: Void.self) { group in
            for session in openFiles.openSessions where session.isDirty {
                group.addTask {
                    do {
                        try await session.upload()
                    } catch {
                        self.logger.warning(
                            "Upload before unmount failed",
                            metadata: ["item": "\(session.itemID)", "error": "\(error)"])
                    }
                }
            }
        }
    }

    /// Ends every write session still open (after the kernel let go of the mount) and waits for all of them.
    func finishAll() async {
        for session in openFiles.openSessions {
            openFiles.detach(session)
            openFiles.finishInBackground(session)
        }
        await openFiles.waitForFinishing()
    }
}
