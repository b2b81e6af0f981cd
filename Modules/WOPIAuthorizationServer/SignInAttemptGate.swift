import Synchronization

/// The sign-in attempts under way in this process, per throttle key, so that parallel attempts count as many tries
/// as they are.
///
/// A failure is counted in the ``SignInThrottleStore`` only once its password hash is done (about 0.1 s); without
/// the gate, 40 wrong passwords sent at once would all read a count of zero and all be checked. An attempt enters
/// the gate before its count is read and leaves only after its outcome is recorded, so every attempt either sees
/// the failures of those before it in the store or sees them still in the gate: the account's allowance of 5 lets 5
/// hashes run, not 40. Several host processes sharing one store each have their own gate; there the bound is the
/// allowance per process while the first hashes run (see `Docs/security.md`).
final class SignInAttemptGate: Sendable {
    private let inFlight = Mutex<[String: Int]>([:])

    /// One attempt's place in the gate; ``release()`` it once the attempt's outcome is recorded.
    struct Reservation: Sendable {
        fileprivate let gate: SignInAttemptGate?
        fileprivate let keys: [String]

        /// A reservation that holds nothing (the throttle is off).
        static let none = Reservation(gate: nil, keys: [])

        /// Leaves the gate.
        func release() {
            gate?.leave(keys)
        }
    }

    /// Enters the gate under every key; returns the reservation and, per key, how many attempts are under way with
    /// this one (1 when it is alone).
    func enter(_ keys: [String]) -> (reservation: Reservation, positions: [Int]) {
        let positions = inFlight.withLock { counts in
            keys.map { key in
                counts[key, default: 0] += 1
                return counts[key, default: 0]
            }
        }
        return (Reservation(gate: self, keys: keys), positions)
    }

    private func leave(_ keys: [String]) {
        inFlight.withLock { counts in
            for key in keys {
                let left = (counts[key] ?? 1) - 1
                counts[key] = left > 0 ? left : nil
            }
        }
    }
}
