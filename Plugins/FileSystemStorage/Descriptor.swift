import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor, closed when the last reference goes away.
final class Descriptor: Sendable {
    /// The raw descriptor.
    let raw: Int32

    init(_ raw: Int32) {
        self.raw = raw
    }

    deinit {
        _ = close(raw)
    }

    /// Opens `name` relative to `directory` without following a symbolic link in the last component.
    ///
    /// `O_NONBLOCK` keeps a FIFO dropped in by someone from blocking the opener; it has no effect on files.
    static func open(_ name: String, in directory: Descriptor?, flags: Int32, mode: mode_t = 0o644) throws -> Descriptor
    {
        let fd = SystemCall.retrying {
            openat(directory?.raw ?? AT_FDCWD, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode)
        }
        guard fd >= 0 else { throw POSIXFailure(errno: errno, "open \"\(name)\"") }
        return Descriptor(fd)
    }

    /// Opens the directory `name` inside `directory`.
    static func openDirectory(_ name: String, in directory: Descriptor?) throws -> Descriptor {
        try open(name, in: directory, flags: O_RDONLY | O_DIRECTORY)
    }

    /// The status of the open file.
    func status() throws -> FileStatus {
        var info = stat()
        guard fstat(raw, &info) == 0 else { throw POSIXFailure(errno: errno, "fstat") }
        return FileStatus(info)
    }

    /// The status of `name` in this directory, not following a symbolic link; `nil` when there is no such entry.
    func status(of name: String) throws -> FileStatus? {
        var info = stat()
        guard fstatat(raw, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFailure(errno: errno, "stat \"\(name)\"")
        }
        return FileStatus(info)
    }

    /// The names in this directory (without `.` and `..`); names that are not valid UTF-8 are left out.
    func entryNames() throws -> [String] {
        try entries().map(\.name)
    }

    /// The entries of this directory (without `.` and `..`), each with its kind when the directory listing tells
    /// it (`d_type`; `nil` on file systems that leave it unknown); names that are not valid UTF-8 are left out.
    func entries() throws -> [(name: String, kind: FileStatus.Kind?)] {
        let copy = dup(raw)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { _ = close(copy) }
            throw POSIXFailure(errno: errno, "open directory for listing")
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var entries: [(name: String, kind: FileStatus.Kind?)] = []
        while let entry = readdir(stream) {
            guard let name = DirectoryEntry.name(entry), name != ".", name != ".." else { continue }
            let kind: FileStatus.Kind?
            switch DirectoryEntry.type(entry) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            entries.append((name, kind))
        }
        return entries
    }

    /// Takes or releases an advisory `flock` on the open file.
    func advisoryLock(_ operation: Int32) throws {
        let result = SystemCall.retrying { flock(raw, operation) }
        guard result == 0 else { throw POSIXFailure(errno: errno, "flock") }
    }

    /// Writes all of `bytes`.
    func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.retrying { write(raw, bytes.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else { throw POSIXFailure(errno: errno, "write") }
            offset += written
        }
    }

    /// Reads up to `buffer.count` bytes at `offset`; returns the count read, 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        let count = SystemCall.retrying { pread(raw, buffer.baseAddress, buffer.count, off_t(offset)) }
        guard count >= 0 else { throw POSIXFailure(errno: errno, "read") }
        return count
    }

    /// Flushes the file (or directory entry changes) to stable storage.
    func sync() throws {
        guard SystemCall.retrying({ fsync(raw) }) == 0 else { throw POSIXFailure(errno: errno, "fsync") }
    }
}
