public import Foundation
import Synchronization

/// A clock that tests move forward by hand: both a `Clock<Duration>` for the timers under test (lock refreshers,
/// deadlines, retry delays) and a wall-clock `Date` for the `now:` closures of stores and token checks.
///
/// Time stands still until ``advance(by:)``; a sleeper wakes when the clock passes its deadline, so a
/// test controls every timer without waiting for it. ``waitForSleepers(_:)`` waits until the code under test has
/// reached its next sleep, so advancing never races the timer it means to fire.
///
/// ```swift
/// let clock = TestClock()
/// let session = try await client.openForEditing(file, refreshInterval: .seconds(60), clock: clock)
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(60))  // the refresher wakes and refreshes the lock
/// ```
public final class TestClock: Clock, Sendable {
    /// A point on a ``TestClock``: the time advanced since the clock was made.
    public struct Instant: InstantProtocol {
        /// The time advanced since the clock was made.
        public let offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let start: Date
    private let state = Mutex(State())

    /// A clock standing at `start` (by default the real time of its creation).
    public init(start: Date = Date()) {
        self.start = start
    }

    public var now: Instant { state.withLock { $0.now } }

    public var minimumResolution: Duration { .zero }

    /// The wall-clock time the clock stands at.
    public var date: Date {
        start.addingTimeInterval(Self.seconds(now.offset))
    }

    /// ``date`` as the `now:` closure that stores and hosts take.
    public var dateSource: @Sendable () -> Date { { [self] in date } }

    /// How many tasks sleep on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// When the tasks sleeping on this clock wake, earliest first.
    public var deadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    guard deadline > state.now, !Task.isCancelled else { return nil }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return Self.satisfiedWatchers(&state)
                }
                guard let resumed else {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                    return
                }
                resumed.forEach { $0.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }.sorted { $0.key < $1.key }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value.continuation)
        }
        due.forEach { $0.resume() }
    }

    /// Moves the clock forward by `seconds` (for tests that think in `Date` arithmetic).
    public func advance(by seconds: TimeInterval) {
        advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// Waits until at least `count` tasks sleep on this clock, i.e. the code under test reached its timers.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return ready
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
