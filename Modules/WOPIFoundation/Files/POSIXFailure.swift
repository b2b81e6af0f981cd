#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: the operation and its `errno`.
///
/// Shared by the modules that do their own file I/O (the file-system backend, ``AtomicFile``); turned into a
/// ``StorageError`` with advice for the operator by ``StorageError/init(_:_:)``.
package struct POSIXFailure: Error, CustomStringConvertible {
    /// The `errno` of the call.
    package let errno: Int32
    /// What was called, for example `open "users.json"`.
    package let operation: String

    /// Creates a failure.
    package init(errno: Int32, _ operation: String) {
        self.errno = errno
        self.operation = operation
    }

    package var description: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
}

extension StorageError {
    /// A storage error for a failed system call, with advice for the operator.
    package init(_ failure: POSIXFailure, _ what: String) {
        switch failure.errno {
        case ENOENT:
            self.init(.notFound, "\(what): it no longer exists; it may have been moved or deleted meanwhile.")
        case ENOSPC, EDQUOT:
            self.init(.io, "\(what): the disk is full; free space and try again.", underlying: failure)
        case EACCES, EPERM:
            self.init(
                .io, "\(what): permission denied; give the host's user read and write access to the storage root.",
                underlying: failure)
        case ELOOP:
            self.init(
                .notFound, "\(what): a symbolic link is in the way; symbolic links are never followed.",
                underlying: failure)
        default:
            self.init(.io, "\(what) failed: \(failure).", underlying: failure)
        }
    }
}
