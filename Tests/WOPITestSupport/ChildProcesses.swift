import Foundation
import NIOConcurrencyHelpers

/// The child processes a test run started and has not seen exit: all are killed when the test process exits,
/// so a failed test never leaves a server running.
///
/// The locks are `NIOLockedValueBox`es (a `pthread_mutex_t`), not `Synchronization.Mutex`, which ThreadSanitizer does
/// not see: tests register processes from many tasks at once (Docs/fuzzing-and-sanitizers.md).
public enum ChildProcesses {
    private static let pids = NIOLockedValueBox<Set<Int32>>([])
    private static let installed = NIOLockedValueBox(false)

    /// Remembers `pid`; installs the exit handler on first use.
    public static func register(_ pid: Int32) {
        pids.withLockedValue { _ = $0.insert(pid) }
        installed.withLockedValue { done in
            guard !done else { return }
            done = true
            atexit {
                for pid in ChildProcesses.pids.withLockedValue({ $0 }) { kill(pid, SIGKILL) }
            }
        }
    }

    /// Forgets `pid` (it has exited).
    public static func unregister(_ pid: Int32) {
        pids.withLockedValue { _ = $0.remove(pid) }
    }
}
