import CFuse3
import CFuse3Shim
import Foundation
import Logging
import NIOConcurrencyHelpers

/// One libfuse session mounted in the kernel, served by a dedicated thread (never a Swift concurrency thread).
///
/// The thread runs a loop that polls `/dev/fuse` and a wake-up descriptor, so ``stop()`` ends it promptly from
/// any thread; an unmount from outside (`fusermount3 -u`, `umount`) ends it too.
final class KernelSession: Sendable {
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var handle: Handle?
        var result: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    private init() {}

    /// Creates a session over `fileSystem`, mounts it at `mountPoint` and starts serving.
    ///
    /// - Parameter options: `-o` mount options such as `fsname=…`, `ro`, `default_permissions`.
    /// - Throws: ``FUSEMountError`` with ``FUSEMountError/Code/mountFailed`` when libfuse or the kernel refuse.
    static func start(fileSystem: FUSEFileSystem, mountPoint: String, options: [String]) async throws -> KernelSession {
        LibfuseLog.install()
        let session = KernelSession()
        let userData = Unmanaged.passRetained(fileSystem)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                guard let handle = createSession(options: options, userData: userData.toOpaque()) else {
                    userData.release()
                    continuation.resume(
                        throwing: FUSEMountError(
                            .mountFailed, "libfuse could not create a session (options \(options)); see the log."))
                    session.end(result: -1)
                    return
                }
                guard wopikit_fuse_mount(handle, mountPoint) == 0 else {
                    wopikit_fuse_destroy(handle)
                    userData.release()
                    continuation.resume(
                        throwing: FUSEMountError(
                            .mountFailed,
                            "The kernel refused to mount at \(mountPoint); check that it is an empty directory, not "
                                + "already a mount, and that this process may mount (root or fusermount3); see the log."
                        ))
                    session.end(result: -1)
                    return
                }
                session.state.withLockedValue { $0.handle = Handle(pointer: handle) }
                continuation.resume()
                let result = wopikit_fuse_loop(handle)
                session.state.withLockedValue { $0.handle = nil }
                wopikit_fuse_destroy(handle)
                userData.release()
                session.end(result: result)
            }
            thread.name = "wopikit-fuse \(mountPoint)"
            thread.start()
        }
        return session
    }

    private static func createSession(options: [String], userData: UnsafeMutableRawPointer) -> OpaquePointer? {
        var operations = LowLevelOperations.make()
        let strings = options.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        let pointers = strings.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { argv in
            withUnsafePointer(to: &operations) { ops in
                wopikit_fuse_create(
                    argv.baseAddress, Int32(argv.count), ops, MemoryLayout<fuse_lowlevel_ops>.size, userData)
            }
        }
    }

    /// Asks the serving thread to stop; the kernel connection is closed when it does. Safe from any thread.
    func stop() {
        state.withLockedValue { state in
            if let handle = state.handle { wopikit_fuse_stop(handle.pointer) }
        }
    }

    /// Records that the kernel mount was removed by the caller (possibly lazily), so that ending the session does
    /// not try to unmount again.
    func markUnmounted() {
        state.withLockedValue { state in
            if let handle = state.handle { wopikit_fuse_mark_unmounted(handle.pointer) }
        }
    }

    /// Whether the serving thread is still running.
    var isRunning: Bool { state.withLockedValue { $0.result == nil } }

    /// Waits until the serving thread has ended; returns its result (0, or a negative errno).
    func waitUntilFinished() async -> Int32 {
        await withCheckedContinuation { continuation in
            let result = state.withLockedValue { state -> Int32? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let result { continuation.resume(returning: result) }
        }
    }

    private func end(result: Int32) {
        let waiters = state.withLockedValue { state in
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }
}
