/// An error from mounting or unmounting a ``FUSEMount``.
///
/// Match on ``code``; the cases are open for additions, so always keep a `default` branch. The ``message`` says
/// what went wrong and what to do.
public struct FUSEMountError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fuseUnavailable, invalidMountPoint, mountFailed, unmountFailed, alreadyUsed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `/dev/fuse` or the libfuse library is missing, or this process may not use it.
        public static let fuseUnavailable = Code(.fuseUnavailable)
        /// The mount point does not exist or is not a directory.
        public static let invalidMountPoint = Code(.invalidMountPoint)
        /// The kernel refused the mount (permissions, an existing mount, bad options).
        public static let mountFailed = Code(.mountFailed)
        /// The kernel refused to unmount.
        public static let unmountFailed = Code(.unmountFailed)
        /// The mount was already unmounted; a ``FUSEMount`` mounts once.
        public static let alreadyUsed = Code(.alreadyUsed)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "FUSEMountError.\(code): \(message)" }
}
