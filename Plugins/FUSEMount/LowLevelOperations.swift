import CFuse3
import CFuse3Shim
import Foundation

/// The libfuse low-level callback table.
///
/// Every callback runs on the mount's FUSE thread and returns quickly: operations that need the backend copy
/// their arguments and answer later from a task (``FUSERequest/respond(_:_:)``); reads and writes of files open
/// for writing, `readdir` over a listing taken at `opendir`, `statfs`, `release` and `forget` answer at once
/// from memory and the local cache files. So the FUSE thread never waits for Swift concurrency, and a hung
/// backend costs each caller one operation timeout, not the mount.
///
/// Refused with `EPERM`: symbolic and hard links. Not implemented (libfuse answers `ENOSYS` and the kernel falls
/// back or reports it): device nodes, extended attributes, `fallocate`, `copy_file_range`, POSIX locks (the
/// kernel keeps those locally).
enum LowLevelOperations {
    /// The callback table handed to `fuse_session_new`.
    static func make() -> fuse_lowlevel_ops {
        var ops = fuse_lowlevel_ops()
        ops.`init` = { _, connection in
            if let connection { wopikit_fuse_configure_connection(connection) }
        }
        ops.lookup = { req, parent, name in
            guard let req, let rawName = name else { return }
            let name = String(cString: rawName)
            FUSERequest(req).respond("lookup") { fs, _ in .entry(try await fs.lookup(parent: parent, name: name)) }
        }
        ops.forget = { req, _, _ in fuse_reply_none(req) }
        ops.forget_multi = { req, _, _ in fuse_reply_none(req) }
        ops.getattr = { req, inode, _ in
            guard let req else { return }
            FUSERequest(req).respond("getattr") { fs, _ in
                .attributes(
                    try await fs.attributes(of: inode), timeout: fs.configuration.attributeCacheTTL.timeInterval)
            }
        }
        ops.setattr = { req, inode, attributes, toSet, info in
            guard let req else { return }
            let size: Int64? = toSet & FUSE_SET_ATTR_SIZE != 0 ? attributes.map { Int64($0.pointee.st_size) } : nil
            let modified = LowLevelOperations.requestedModificationTime(attributes, toSet)
            let accessed = LowLevelOperations.requestedAccessTime(attributes, toSet)
            let permissions = toSet & FUSE_SET_ATTR_MODE != 0 ? attributes.map { $0.pointee.st_mode & 0o7777 } : nil
            let owner = toSet & FUSE_SET_ATTR_UID != 0 ? attributes?.pointee.st_uid : nil
            let group = toSet & FUSE_SET_ATTR_GID != 0 ? attributes?.pointee.st_gid : nil
            let handle = info?.pointee.fh
            FUSERequest(req).respond("setattr") { fs, _ in
                .attributes(
                    try await fs.setAttributes(
                        inode, size: size, modified: modified, accessed: accessed, permissions: permissions,
                        owner: owner, group: group,
                        handle: handle),
                    timeout: fs.configuration.attributeCacheTTL.timeInterval)
            }
        }
        // Links need what WOPI cannot carry: EPERM, as POSIX has it for a file system without links.
        ops.symlink = { req, _, _, _ in fuse_reply_err(req, EPERM) }
        ops.link = { req, _, _, _ in fuse_reply_err(req, EPERM) }
        ops.mkdir = { req, parent, name, mode in
            guard let req, let rawName = name else { return }
            let name = String(cString: rawName)
            let request = FUSERequest(req)
            let caller = request.caller
            request.respond("mkdir") { fs, _ in
                .entry(try await fs.makeDirectory(parent: parent, name: name, permissions: mode, caller: caller))
            }
        }
        ops.unlink = { req, parent, name in
            guard let req, let rawName = name else { return }
            let name = String(cString: rawName)
            FUSERequest(req).respond("unlink") { fs, _ in
                try await fs.unlink(parent: parent, name: name)
                return .status(0)
            }
        }
        ops.rmdir = { req, parent, name in
            guard let req, let rawName = name else { return }
            let name = String(cString: rawName)
            FUSERequest(req).respond("rmdir") { fs, _ in
                try await fs.removeDirectory(parent: parent, name: name)
                return .status(0)
            }
        }
        ops.rename = { req, parent, name, newParent, newName, flags in
            guard let req, let rawName = name, let rawNewName = newName else { return }
            let name = String(cString: rawName)
            let newName = String(cString: rawNewName)
            FUSERequest(req).respond("rename") { fs, _ in
                try await fs.rename(parent: parent, name: name, newParent: newParent, newName: newName, flags: flags)
                return .status(0)
            }
        }
        installFileOperations(&ops)
        installDirectoryOperations(&ops)
        return ops
    }

    /// The modification time a `setattr` asks for: a given time, "now", or `nil` when it leaves the time alone.
    static func requestedModificationTime(_ attributes: UnsafeMutablePointer<stat>?, _ toSet: Int32) -> Date? {
        if toSet & FUSE_SET_ATTR_MTIME_NOW != 0 { return Date() }
        guard toSet & FUSE_SET_ATTR_MTIME != 0, let time = attributes?.pointee.st_mtim else { return nil }
        return date(of: time)
    }

    /// The access time a `setattr` asks for: a given time, "now", or `nil` when it leaves the time alone.
    static func requestedAccessTime(_ attributes: UnsafeMutablePointer<stat>?, _ toSet: Int32) -> Date? {
        if toSet & FUSE_SET_ATTR_ATIME_NOW != 0 { return Date() }
        guard toSet & FUSE_SET_ATTR_ATIME != 0, let time = attributes?.pointee.st_atim else { return nil }
        return date(of: time)
    }

    private static func date(of time: timespec) -> Date {
        Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000)
    }

    private static func installFileOperations(_ ops: inout fuse_lowlevel_ops) {
        ops.open = { req, inode, info in
            guard let req, let info else { return }
            let flags = info.pointee.flags
            FUSERequest(req).respond("open") { fs, _ in .opened(handle: try await fs.open(inode, flags: flags)) }
        }
        ops.create = { req, parent, name, mode, info in
            guard let req, let rawName = name, let info else { return }
            let name = String(cString: rawName)
            let flags = info.pointee.flags
            let request = FUSERequest(req)
            let caller = request.caller
            request.respond("create") { fs, _ in
                let (entry, handle) = try await fs.create(
                    parent: parent, name: name, flags: flags, permissions: mode, caller: caller)
                return .created(entry, handle: handle)
            }
        }
        ops.read = { req, inode, size, offset, info in
            guard let req, let info else { return }
            let handle = info.pointee.fh
            let request = FUSERequest(req)
            do {
                if let bytes = try request.fileSystem.readLocally(inode, offset: Int64(offset), count: size) {
                    return request.reply(.bytes(bytes))
                }
            } catch {
                return request.fail(error, operation: "read")
            }
            request.respond("read") { fs, watchdog in
                .bytes(
                    try await fs.readRemotely(
                        inode, handle: handle, offset: Int64(offset), count: size, watchdog: watchdog))
            }
        }
        ops.write = { req, _, buffer, size, offset, info in
            guard let req, let info else { return }
            let request = FUSERequest(req)
            do {
                let bytes = UnsafeRawBufferPointer(start: buffer, count: size)
                try request.fileSystem.write(handle: info.pointee.fh, bytes: bytes, offset: Int64(offset))
                request.reply(.written(size))
            } catch {
                request.fail(error, operation: "write")
            }
        }
        ops.flush = { req, _, info in
            guard let req, let info else { return }
            let handle = info.pointee.fh
            FUSERequest(req).respond("flush") { fs, _ in
                try await fs.flush(handle: handle, closing: true)
                return .status(0)
            }
        }
        ops.fsync = { req, _, _, info in
            guard let req, let info else { return }
            let handle = info.pointee.fh
            FUSERequest(req).respond("fsync") { fs, _ in
                try await fs.flush(handle: handle)
                return .status(0)
            }
        }
        ops.release = { req, _, info in
            guard let req, let info else { return }
            let request = FUSERequest(req)
            request.fileSystem.release(handle: info.pointee.fh)
            request.reply(.status(0))
        }
        ops.statfs = { req, _ in
            guard let req else { return }
            let request = FUSERequest(req)
            request.reply(.statistics(request.fileSystem.statistics()))
        }
    }

    private static func installDirectoryOperations(_ ops: inout fuse_lowlevel_ops) {
        ops.opendir = { req, inode, _ in
            guard let req else { return }
            FUSERequest(req).respond("opendir") { fs, _ in .openedDirectory(handle: try await fs.openDirectory(inode)) }
        }
        ops.readdir = { req, _, size, offset, info in
            guard let req, let info else { return }
            let request = FUSERequest(req)
            guard let entries = request.fileSystem.openFiles.directory(info.pointee.fh) else {
                return request.reply(.status(EBADF))
            }
            var buffer = [UInt8](repeating: 0, count: size)
            var used = 0
            var index = max(0, offset)
            while index < entries.count {
                let entry = entries[index]
                let needed = buffer.withUnsafeMutableBytes { raw in
                    wopikit_fuse_add_direntry(
                        UnsafeMutableRawPointer(req), raw.baseAddress!.assumingMemoryBound(to: CChar.self) + used,
                        size - used, entry.name, entry.inode, entry.mode, Int64(index + 1))
                }
                if needed > size - used { break }
                used += needed
                index += 1
            }
            request.reply(.bytes(Array(buffer.prefix(used))))
        }
        ops.releasedir = { req, _, info in
            guard let req, let info else { return }
            let request = FUSERequest(req)
            request.fileSystem.openFiles.removeDirectory(info.pointee.fh)
            request.reply(.status(0))
        }
        ops.fsyncdir = { req, _, _, _ in
            guard let req else { return }
            FUSERequest(req).reply(.status(0))
        }
    }
}
