import Foundation
import Synchronization

/// A clock that tests move forward by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date())

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the closure the module's types take.
    var function: @Sendable () -> Date { { [self] in now } }
}
