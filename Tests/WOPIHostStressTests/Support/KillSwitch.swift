import Foundation
import Synchronization

/// Sends SIGKILL to a process in the middle of a request body, once `threshold` requests were acknowledged: the
/// first body to pass half its size after that kills the process before sending the rest, so at least that request
/// is cut off mid-body, whatever the timing of the others.
final class KillSwitch: Sendable {
    private let pid: Int32
    private let threshold: Int
    private let state = Mutex((acknowledged: 0, fired: false))

    init(pid: Int32, threshold: Int) {
        self.pid = pid
        self.threshold = threshold
    }

    /// Whether the process was killed.
    var fired: Bool { state.withLock { $0.fired } }

    /// Counts one acknowledged request.
    func acknowledged() {
        state.withLock { $0.acknowledged += 1 }
    }

    /// Told by a body of `size` bytes before it sends the bytes at `offset`: kills the process when `threshold`
    /// requests were acknowledged and this body is past half its size.
    func sending(at offset: Int, of size: Int) {
        let fire = state.withLock { state in
            guard !state.fired, state.acknowledged >= threshold, offset >= size / 2 else { return false }
            state.fired = true
            return true
        }
        if fire { kill(pid, SIGKILL) }
    }
}
