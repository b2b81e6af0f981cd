#if canImport(Glibc)
    package import Glibc
#elseif canImport(Musl)
    package import Musl
#elseif canImport(Darwin)
    package import Darwin
#endif

/// Reads a record that `readdir(3)` returned in place: its name and its type, and nothing past them.
///
/// A record is only `d_reclen` bytes long: for a short name, much less than `MemoryLayout<dirent>.size` (its
/// `d_name` has room for 256 bytes). The last record in the directory stream's buffer can end at the end of a mapped
/// page, so reading `entry.pointee`, or its whole `d_name`, can read past the mapping and crash the process (a
/// `wopi-host` serving files from a folder did, listing a folder of 1,000 files under load). These read the name up
/// to its NUL and the one type byte.
package enum DirectoryEntry {
    /// The entry's name; `nil` when it is not valid UTF-8.
    package static func name(_ entry: UnsafePointer<dirent>) -> String? {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(validatingCString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// The entry's `d_type` (`DT_REG`, `DT_DIR`, `DT_UNKNOWN`, ...).
    package static func type(_ entry: UnsafePointer<dirent>) -> Int32 {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_type)!
        return Int32((UnsafeRawPointer(entry) + offset).load(as: UInt8.self))
    }
}
