public import Foundation
import NIOConcurrencyHelpers

/// The child processes a test run started and has not seen exit: all are killed when the test process exits,
/// so a failed test never leaves a server running.
///
/// The locks are `NIOLockedValueBox`es (a `pthread_mutex_t`), not `Synchronization.Mutex`, which ThreadSanitizer does
/// not see: tests register processes from many tasks at once (Docs/fuzzing-and-sanitizers.md).
public enum ChildProcesses {
    private static let pids = NIOLockedValueBox<Set<Int32>>([])
    private static let directories = NIOLockedValueBox<[URL]>([])
    private static let installed = NIOLockedValueBox(false)

    /// Remembers `pid`; installs the exit handler on first use.
    public static func register(_ pid: Int32) {
        pids.withLockedValue { _ = $0.insert(pid) }
        installExitHandler()
    }

    /// Forgets `pid` (it has exited).
    public static func unregister(_ pid: Int32) {
        pids.withLockedValue { _ = $0.remove(pid) }
    }

    /// Removes `directory` when the test process exits, once the children are killed: for the working folder of a
    /// server that the whole run shares and never stops (PostgreSQL's cluster, tens of MB per run).
    public static func removeAtExit(_ directory: URL) {
        directories.withLockedValue { $0.append(directory) }
        installExitHandler()
    }

    private static func installExitHandler() {
        installed.withLockedValue { done in
            guard !done else { return }
            done = true
            atexit {
                let pids = ChildProcesses.pids.withLockedValue { $0 }
                for pid in pids { kill(pid, SIGKILL) }
                // Reaps the killed children, so none still writes into a directory removed below: 2 s at most, as a
                // child stuck in a dead FUSE mount cannot die. waitpid fails at once for a child already reaped.
                var left = pids
                for _ in 0..<200 where !left.isEmpty {
                    left = left.filter { waitpid($0, nil, WNOHANG) == 0 }
                    if !left.isEmpty { usleep(10_000) }
                }
                for directory in ChildProcesses.directories.withLockedValue({ $0 }) {
                    try? FileManager.default.removeItem(at: directory)
                }
            }
        }
    }
}
