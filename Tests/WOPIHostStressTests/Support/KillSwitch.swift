import Foundation
import Synchronization

/// Sends SIGKILL to a process when the `threshold`-th event is counted, and only then.
final class KillSwitch: Sendable {
    private let pid: Int32
    private let threshold: Int
    private let state = Mutex((count: 0, fired: false))

    init(pid: Int32, threshold: Int) {
        self.pid = pid
        self.threshold = threshold
    }

    /// Whether the process was killed.
    var fired: Bool { state.withLock { $0.fired } }

    /// Counts one event; the `threshold`-th one kills the process at once.
    func count() {
        let fire = state.withLock { state in
            state.count += 1
            guard state.count == threshold else { return false }
            state.fired = true
            return true
        }
        if fire { kill(pid, SIGKILL) }
    }
}
