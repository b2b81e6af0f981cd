import Foundation
import Synchronization

/// The wall clock a conformance case hands to the store under test and moves forward by hand, so expiry is
/// checked without sleeping.
final class ConformanceClock: Sendable {
    private let current = Mutex(Date())

    /// The time the clock stands at.
    var now: Date { current.withLock { $0 } }

    /// The clock as the `now:` closure stores take.
    var dateSource: @Sendable () -> Date { { [self] in now } }

    /// Moves the clock forward by `seconds`.
    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
