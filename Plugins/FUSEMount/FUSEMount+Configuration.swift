public import Foundation

extension FUSEMount {
    /// How a ``FUSEMount`` behaves. Every setting but the mount point has a default.
    ///
    /// ```swift
    /// var configuration = FUSEMount.Configuration(mountPoint: "/mnt/docs")
    /// configuration.operationTimeout = .seconds(10)
    /// ```
    public struct Configuration: Sendable {
        /// The directory to mount over; it must exist (and should be empty).
        public var mountPoint: String
        /// Mounts read-only: writes fail with `EROFS` and no file is ever locked.
        public var readOnly: Bool
        /// How long the kernel may reuse a file's attributes (size, mtime) before asking again.
        public var attributeCacheTTL: Duration
        /// How long the kernel may reuse a name lookup, and this mount a container listing, before asking the
        /// backend again. Changes made through this mount are seen at once; changes made elsewhere within this time.
        public var directoryCacheTTL: Duration
        /// The longest any backend or lock-store call may go without progress before the file-system call fails
        /// with `ETIMEDOUT` (streamed transfers count each chunk as progress).
        public var operationTimeout: Duration
        /// Where working copies of files open for writing live (created with mode 0700 when missing). Content
        /// that could not be uploaded is kept in its `unsaved` subdirectory.
        public var cacheDirectory: String
        /// A name that identifies this mount in lock IDs (`<lockHolder>/<uuid>`), so that an operator can tell
        /// who holds a lock.
        public var lockHolder: String
        /// How long a lock taken for writing lasts unless refreshed.
        public var lockDuration: Duration
        /// How often the lock of a file that stays open for writing is refreshed; keep it well below
        /// ``lockDuration``.
        public var lockRefreshInterval: Duration
        /// The file-system name shown by `mount` and `df`.
        public var fileSystemName: String
        /// Lets other users than the mounting one use the mount (`allow_other`; non-root users need
        /// `user_allow_other` in `/etc/fuse.conf`).
        public var allowOtherUsers: Bool
        /// The clock that times operation deadlines and lock refreshes; tests pass one they move forward by hand.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// The wall-clock time that lock expiries are computed from; keep it in step with ``clock`` and with the
        /// lock store's own `now`.
        public var now: @Sendable () -> Date = { Date() }

        /// Creates a configuration with short cache times (1 s), a 30 s operation timeout, 30-minute locks
        /// refreshed every 10 minutes, and a cache directory under the temporary directory.
        public init(
            mountPoint: String,
            readOnly: Bool = false,
            attributeCacheTTL: Duration = .seconds(1),
            directoryCacheTTL: Duration = .seconds(1),
            operationTimeout: Duration = .seconds(30),
            cacheDirectory: String? = nil,
            lockHolder: String = "wopikit-fuse",
            lockDuration: Duration = .seconds(30 * 60),
            lockRefreshInterval: Duration = .seconds(10 * 60),
            fileSystemName: String = "wopikit",
            allowOtherUsers: Bool = false
        ) {
            self.mountPoint = mountPoint
            self.readOnly = readOnly
            self.attributeCacheTTL = attributeCacheTTL
            self.directoryCacheTTL = directoryCacheTTL
            self.operationTimeout = operationTimeout
            self.cacheDirectory =
                cacheDirectory
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("wopikit-fuse-cache").path
            self.lockHolder = lockHolder
            self.lockDuration = lockDuration
            self.lockRefreshInterval = lockRefreshInterval
            self.fileSystemName = fileSystemName
            self.allowOtherUsers = allowOtherUsers
        }

        /// The `-o` options handed to libfuse.
        var mountOptions: [String] {
            var options = ["fsname=\(fileSystemName)", "subtype=wopikit", "default_permissions"]
            if readOnly { options.append("ro") }
            if allowOtherUsers { options.append("allow_other") }
            return options
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation and libfuse count time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
