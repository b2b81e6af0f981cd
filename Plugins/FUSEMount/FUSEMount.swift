import Foundation
public import Logging
import NIOConcurrencyHelpers
public import WOPIStorage

/// Mounts a container of any ``StorageBackend`` as a Linux file system (libfuse3, low-level API).
///
/// Shell tools and editors work on it as on a local disk. Reads stream from the backend; a file opened for
/// writing is locked through the ``LockStore`` and edited in a local working copy that is uploaded on
/// `close`/`fsync` with a version check, so a concurrent change elsewhere produces a conflict copy and an `EIO`
/// instead of a lost update. Every backend call is bounded by ``Configuration/operationTimeout``.
///
/// ```swift
/// let root = try await backend.rootContainer(forUser: "alice")
/// let mount = FUSEMount(
///     backend: backend, lockStore: locks, root: root.id,
///     configuration: .init(mountPoint: "/mnt/alice"))
/// try await mount.run()  // returns once unmounted
/// ```
///
/// **Signals.** Handling SIGINT/SIGTERM is the caller's job: ``unmount()`` may be called from any task, any
/// number of times. With Dispatch: `signal(SIGINT, SIG_IGN)`, then a `DispatchSource.makeSignalSource(signal:
/// SIGINT)` whose handler runs `Task { try? await mount.unmount() }`. ``run()`` also unmounts when its task is
/// cancelled, so in a ServiceLifecycle `Service` write
/// `try await withGracefulShutdownHandler { try await mount.run() } onGracefulShutdown: { Task { try? await
/// mount.unmount() } }` (or run it under `cancelWhenGracefulShutdown`).
///
/// **Names, IDs and what is not stored.** Inode numbers are stable for the life of the mount. Renaming over
/// an existing file (the atomic save of most editors) uses `move(… replacing: true)`: the file then has the
/// moved file's ID, not the original's; a backend that cannot rename over (a WOPI host) gets the content written
/// into the original instead, which keeps its ID. Modification times set with `touch` or `utimensat` are kept by the
/// mount while the item is unchanged; `chmod` is accepted and not stored (files show 0644, directories 0755, owned
/// by the mounting user); `chown` to someone else, `symlink` and `link` are `EPERM` (see `Docs/fuse-mount.md`).
///
/// **Caveat for tests and in-process use.** Never make blocking file-system calls on the mount from a Swift
/// concurrency thread of the same process: the replies are produced by tasks on that same pool. Use a
/// dedicated thread or another process.
public final class FUSEMount: Sendable {
    private enum Phase {
        case idle
        case mounting(Task<Void, any Error>)
        case mounted(KernelSession, lifetime: Task<Void, Never>)
        case unmounting(Task<Void, any Error>, lifetime: Task<Void, Never>)
        case unmounted
    }

    /// The configuration this mount was made with.
    public let configuration: Configuration
    private let fileSystem: FUSEFileSystem
    private let logger: Logger
    private let phase = NIOLockedValueBox(Phase.idle)

    /// Prepares a mount; nothing happens until ``mount()`` or ``run()``.
    ///
    /// - Parameters:
    ///   - backend: where the files live (a local store, or a `RemoteStorage` for a remote WOPI provider).
    ///   - lockStore: where write locks are taken (for a remote provider, one that maps to WOPI Lock/Unlock).
    ///   - root: the container shown at the mount point (usually `rootContainer(forUser:)`).
    ///   - configuration: mount point, caches, timeouts, locks.
    ///   - logger: where the mount logs; lock conflicts, conflict copies and unsaved content are logged here.
    public init(
        backend: any StorageBackend, lockStore: any LockStore, root: ItemID, configuration: Configuration,
        logger: Logger = Logger(label: "wopikit.fuse")
    ) {
        self.configuration = configuration
        self.logger = logger
        let environment = MountEnvironment(
            backend: backend, lockStore: lockStore, configuration: configuration, logger: logger)
        self.fileSystem = FUSEFileSystem(environment: environment, root: root)
    }

    /// Whether the file system is mounted (or being unmounted) right now.
    public var isMounted: Bool {
        phase.withLockedValue { phase in
            switch phase {
            case .mounted, .unmounting: true
            default: false
            }
        }
    }

    /// Mounts the file system and returns once it is usable; serving continues in the background.
    ///
    /// Calling it again while mounted does nothing.
    /// - Throws: ``FUSEMountError``: `/dev/fuse` unusable, a bad mount point or cache directory, a refused
    ///   mount, or ``FUSEMountError/Code/alreadyUsed`` after an unmount (make a new `FUSEMount`).
    public func mount() async throws {
        let action = phase.withLockedValue { phase -> Task<Void, any Error>? in
            switch phase {
            case .idle:
                let task = Task { try await self.performMount() }
                phase = .mounting(task)
                return task
            case .mounting(let task):
                return task
            case .mounted, .unmounting:
                return nil
            case .unmounted:
                return Task { throw FUSEMountError(.alreadyUsed, "This mount was unmounted; create a new FUSEMount.") }
            }
        }
        try await action?.value
    }

    /// Mounts if needed and serves until the file system is unmounted, by ``unmount()`` or from outside
    /// (`fusermount3 -u`). Cancelling the calling task unmounts.
    public func run() async throws {
        try await mount()
        guard let lifetime = currentLifetime else { return }
        await withTaskCancellationHandler {
            await lifetime.value
        } onCancel: {
            Task { try? await self.unmount() }
        }
    }

    /// Uploads pending changes, then unmounts and waits until serving has stopped. Safe to call from any task,
    /// any number of times, also while the backend hangs (each upload is bounded by the operation timeout).
    ///
    /// When processes still use the mount (open files, a shell inside it), it is detached lazily and the
    /// connection closed: those processes then get `ENOTCONN`. Working copies that could not be uploaded stay in
    /// the cache directory's `unsaved` folder and are logged.
    /// - Throws: ``FUSEMountError/Code/unmountFailed`` when the kernel refuses even a lazy unmount.
    public func unmount() async throws {
        enum Step {
            case none
            case wait(Task<Void, any Error>)
            case start(KernelSession, Task<Void, Never>)
        }
        let step = phase.withLockedValue { phase -> Step in
            switch phase {
            case .idle, .unmounted: return .none
            case .mounting(let task): return .wait(task)
            case .unmounting(let task, _): return .wait(task)
            case .mounted(let session, let lifetime): return .start(session, lifetime)
            }
        }
        switch step {
        case .none:
            return
        case .wait(let task):
            _ = try? await task.value
            if isMounted { try await unmount() }
        case .start(let session, let lifetime):
            let task = Task { try await self.performUnmount(session, lifetime: lifetime) }
            let mine = phase.withLockedValue { phase -> Bool in
                guard case .mounted = phase else { return false }
                phase = .unmounting(task, lifetime: lifetime)
                return true
            }
            if !mine {
                task.cancel()
                return try await unmount()
            }
            do {
                try await task.value
            } catch {
                phase.withLockedValue { $0 = .mounted(session, lifetime: lifetime) }
                throw error
            }
        }
    }

    // MARK: - Steps

    private var currentLifetime: Task<Void, Never>? {
        phase.withLockedValue { phase in
            switch phase {
            case .mounted(_, let lifetime), .unmounting(_, let lifetime): lifetime
            default: nil
            }
        }
    }

    private func performMount() async throws {
        do {
            try checkPreconditions()
            let session = try await KernelSession.start(
                fileSystem: fileSystem, mountPoint: configuration.mountPoint, options: configuration.mountOptions)
            let fileSystem = fileSystem
            let lifetime = Task {
                _ = await session.waitUntilFinished()
                await fileSystem.finishAll()
                self.phase.withLockedValue { $0 = .unmounted }
                self.logger.info("Unmounted", metadata: ["mountPoint": "\(self.configuration.mountPoint)"])
            }
            phase.withLockedValue { $0 = .mounted(session, lifetime: lifetime) }
            logger.info(
                "Mounted",
                metadata: ["mountPoint": "\(configuration.mountPoint)", "readOnly": "\(configuration.readOnly)"])
        } catch {
            phase.withLockedValue { $0 = .idle }
            throw error
        }
    }

    private func checkPreconditions() throws {
        guard access("/dev/fuse", R_OK | W_OK) == 0 else {
            throw FUSEMountError(
                .fuseUnavailable,
                "/dev/fuse is missing or not usable by this process (\(String(cString: strerror(errno)))); load the "
                    + "fuse module, or in a container pass --device /dev/fuse --cap-add SYS_ADMIN.")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.mountPoint, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw FUSEMountError(
                .invalidMountPoint,
                "The mount point \(configuration.mountPoint) is not an existing directory; create it.")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: configuration.cacheDirectory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw FUSEMountError(
                .invalidMountPoint,
                "Cannot create the cache directory \(configuration.cacheDirectory) (\(error)); choose a writable one.")
        }
    }

    private func performUnmount(_ session: KernelSession, lifetime: Task<Void, Never>) async throws {
        let mountPoint = configuration.mountPoint
        logger.info("Unmounting; uploading pending changes first", metadata: ["mountPoint": "\(mountPoint)"])
        await fileSystem.flushAll()
        if session.isRunning {
            let logger = logger
            try await onDedicatedThread("wopikit-fuse unmount") {
                try Self.unmountKernel(mountPoint, logger: logger)
            }
            session.markUnmounted()
        }
        session.stop()
        await lifetime.value
    }

    private static func unmountKernel(_ mountPoint: String, logger: Logger) throws {
        if geteuid() == 0 {
            if umount2(mountPoint, 0) == 0 { return }
            var code = errno
            if code == EINVAL || code == ENOENT { return }  // Not mounted any more.
            if code == EBUSY {
                logger.warning(
                    "The mount is busy (open files or a working directory inside); detaching it lazily",
                    metadata: ["mountPoint": "\(mountPoint)"])
                if umount2(mountPoint, Int32(MNT_DETACH)) == 0 { return }
                code = errno
            }
            throw FUSEMountError(
                .unmountFailed, "Cannot unmount \(mountPoint): \(String(cString: strerror(code))).")
        }
        if try runFusermount(["-u", mountPoint]) == 0 { return }
        logger.warning("fusermount3 -u failed; detaching lazily", metadata: ["mountPoint": "\(mountPoint)"])
        guard try runFusermount(["-u", "-z", mountPoint]) == 0 else {
            throw FUSEMountError(.unmountFailed, "fusermount3 could not unmount \(mountPoint); see its output.")
        }
    }

    private static func runFusermount(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fusermount3")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
