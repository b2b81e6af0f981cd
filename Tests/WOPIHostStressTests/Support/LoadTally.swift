import Foundation
import Synchronization

/// What the clients of a load test did: operations by type and status, protocol violations, transport failures.
final class LoadTally: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var violations: [String] = []
        var transportFailures: [String] = []
    }

    private let state = Mutex(State())

    /// Counts one answered request.
    func record(_ operation: String, _ status: Int) {
        state.withLock { $0.counts["\(operation) \(status)", default: 0] += 1 }
    }

    /// Records an answer the protocol does not allow (or a body that is not one complete version).
    func violation(_ description: String) {
        state.withLock { $0.violations.append(description) }
    }

    /// Records a request that got no HTTP answer.
    func transportFailure(_ description: String) {
        state.withLock { $0.transportFailures.append(description) }
    }

    func count(_ operation: String, _ status: Int) -> Int {
        state.withLock { $0.counts["\(operation) \(status)"] ?? 0 }
    }
    var violations: [String] { state.withLock { $0.violations } }
    var transportFailures: [String] { state.withLock { $0.transportFailures } }
    var total: Int { state.withLock { $0.counts.values.reduce(0, +) } }

    /// The counts as an aligned table, one `operation status count` line each.
    var table: String {
        state.withLock { state in
            state.counts.sorted { $0.key < $1.key }.map { key, value in
                key.padding(toLength: 20, withPad: " ", startingAt: 0) + String(value)
            }.joined(separator: "\n")
        }
    }
}
