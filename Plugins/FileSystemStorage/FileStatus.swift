#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The parts of `stat(2)` the backend uses.
struct FileStatus: Sendable, Equatable {
    enum Kind: Sendable { case file, directory, other }

    /// Regular file, directory, or anything else (symbolic links, devices, FIFOs, sockets: never content).
    var kind: Kind
    /// The size in bytes.
    var size: Int64
    /// The modification time in nanoseconds since 1970.
    var modifiedNanoseconds: Int64
    /// The device and inode, which identify the file system object.
    var device: UInt64
    var inode: UInt64
    /// The permission bits.
    var permissions: mode_t

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        modifiedNanoseconds = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        permissions = info.st_mode & 0o7777
    }

    /// Whether both describe the same file system object.
    func isSameObject(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }
}
