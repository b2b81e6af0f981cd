import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few system calls that Swift's C module does not import, and small helpers around `errno`.
enum POSIX {
    /// The name of the extended attribute that holds an item's ID.
    static let idAttribute = "user.wopikit.id"
    /// The name of the extended attribute that holds a file's ``ContentStamp``.
    static let stampAttribute = "user.wopikit.content"
    /// The name of the extended attribute that holds a file's ``SaveRecord``.
    static let saveAttribute = "user.wopikit.save"
    /// The name of the extended attribute that is `1` on a version a user kept.
    static let keptAttribute = "user.wopikit.kept"

    /// The value of an extended attribute of an open file, or `nil` when it has none.
    static func attribute(_ name: String, of fd: Descriptor) throws -> String? {
        // On the stack: every lookup reads two or three attributes.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            let count = SystemCall.retrying { getAttribute(fd.raw, name, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == noAttributeErrno { return nil }
                throw POSIXFailure(errno: errno, "read extended attribute \(name)")
            }
            return String(validating: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// Sets an extended attribute of an open file.
    ///
    /// - Parameter create: when `true`, fails with `EEXIST` if the attribute exists (atomic first-writer-wins).
    /// - Returns: `false` when `create` is set and the attribute already existed.
    @discardableResult
    static func setAttribute(_ name: String, to value: String, of fd: Descriptor, create: Bool = false) throws -> Bool {
        let bytes = Array(value.utf8)
        let result = bytes.withUnsafeBytes { raw in
            SystemCall.retrying { setAttribute(fd.raw, name, raw.baseAddress, raw.count, create ? createFlag : 0) }
        }
        if result == 0 { return true }
        if create && errno == EEXIST { return false }
        throw POSIXFailure(errno: errno, "write extended attribute \(name)")
    }

    /// Renames `from` in `fromDirectory` to `to` in `toDirectory`, failing with `EEXIST` instead of replacing.
    ///
    /// Uses `renameat2(RENAME_NOREPLACE)` (Linux) or `renameatx_np(RENAME_EXCL)` (Darwin); callers hold the tree
    /// lock, so the fallback for kernels without it (check, then rename) is safe among WOPIKit processes.
    static func renameNoReplace(
        _ from: String, in fromDirectory: Descriptor, to: String, in toDirectory: Descriptor
    ) throws {
        #if canImport(Darwin)
            let result = renameatx_np(fromDirectory.raw, from, toDirectory.raw, to, UInt32(RENAME_EXCL))
            if result == 0 { return }
            if errno != ENOTSUP { throw POSIXFailure(errno: errno, "rename \"\(from)\" to \"\(to)\"") }
        #else
            if let renameat2 = LinuxCalls.renameat2 {
                if renameat2(fromDirectory.raw, from, toDirectory.raw, to, 1 /* RENAME_NOREPLACE */) == 0 { return }
                if errno != EINVAL && errno != ENOSYS {
                    throw POSIXFailure(errno: errno, "rename \"\(from)\" to \"\(to)\"")
                }
            }
        #endif
        if try toDirectory.status(of: to) != nil { throw POSIXFailure(errno: EEXIST, "rename to \"\(to)\"") }
        try rename(from, in: fromDirectory, to: to, in: toDirectory)
    }

    /// Renames `from` in `fromDirectory` to `to` in `toDirectory`, atomically replacing a file there.
    static func rename(_ from: String, in fromDirectory: Descriptor, to: String, in toDirectory: Descriptor) throws {
        guard renameat(fromDirectory.raw, from, toDirectory.raw, to) == 0 else {
            throw POSIXFailure(errno: errno, "rename \"\(from)\" to \"\(to)\"")
        }
    }

    #if canImport(Darwin)
        private static let noAttributeErrno = ENOATTR
        private static let createFlag = XATTR_CREATE
        private static func getAttribute(_ fd: Int32, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int)
            -> Int
        {
            fgetxattr(fd, name, value, size, 0, 0)
        }
        private static func setAttribute(
            _ fd: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32
        ) -> Int32 {
            fsetxattr(fd, name, value, size, 0, flags)
        }
    #else
        private static let noAttributeErrno = ENODATA
        private static let createFlag: Int32 = 1  // XATTR_CREATE
        private static func getAttribute(_ fd: Int32, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int)
            -> Int
        {
            guard let call = LinuxCalls.fgetxattr else {
                errno = ENOTSUP
                return -1
            }
            return call(fd, name, value, size)
        }
        private static func setAttribute(
            _ fd: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32
        ) -> Int32 {
            guard let call = LinuxCalls.fsetxattr else {
                errno = ENOTSUP
                return -1
            }
            return call(fd, name, value, size, flags)
        }
    #endif
}

#if !canImport(Darwin)
    /// C library functions that Swift's `Glibc` module does not import (`<sys/xattr.h>`, `renameat2`), looked up
    /// by name in the running process with their exact C signatures.
    private enum LinuxCalls {
        typealias GetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        typealias SetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

        static let fgetxattr = lookUp("fgetxattr").map { unsafeBitCast($0, to: GetAttribute.self) }
        static let fsetxattr = lookUp("fsetxattr").map { unsafeBitCast($0, to: SetAttribute.self) }
        static let renameat2 = lookUp("renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }

        private static func lookUp(_ symbol: String) -> UnsafeMutableRawPointer? {
            dlsym(dlopen(nil, RTLD_NOW), symbol)
        }
    }
#endif
