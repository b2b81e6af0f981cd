import Foundation
import Synchronization

/// The child processes a test run started and has not seen exit: all are killed when the test process exits,
/// so a failed test never leaves a server running.
public enum ChildProcesses {
    private static let pids = Mutex<Set<Int32>>([])
    private static let installed = Mutex(false)

    /// Remembers `pid`; installs the exit handler on first use.
    public static func register(_ pid: Int32) {
        pids.withLock { _ = $0.insert(pid) }
        installed.withLock { done in
            guard !done else { return }
            done = true
            atexit {
                for pid in ChildProcesses.pids.withLock({ $0 }) { kill(pid, SIGKILL) }
            }
        }
    }

    /// Forgets `pid` (it has exited).
    public static func unregister(_ pid: Int32) {
        pids.withLock { _ = $0.remove(pid) }
    }
}
