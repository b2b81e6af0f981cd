import NIOConcurrencyHelpers
import WOPIStorage

/// Thrown by ``withDeadline(_:clock:_:onAbandoned:)`` when an operation made no progress within its time limit.
struct DeadlineExceeded: Error, CustomStringConvertible {
    /// The time limit that passed.
    let timeout: Duration

    var description: String { "no progress within \(timeout)" }
}

/// Tracks the progress of a bounded operation: each ``touch()`` moves its deadline to `timeout` from now.
///
/// Streaming transfers touch it once per chunk, so a long but steady download is not cut off while a stalled one
/// is.
final class Watchdog: Sendable {
    /// The longest time allowed without progress.
    let timeout: Duration
    private let stopwatch: Stopwatch
    /// The time on ``stopwatch`` of the last progress.
    private let lastProgress: NIOLockedValueBox<Duration>

    init(timeout: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.timeout = timeout
        self.stopwatch = Stopwatch(clock)
        self.lastProgress = NIOLockedValueBox(.zero)
    }

    /// Records progress.
    func touch() {
        let now = stopwatch.elapsed()
        lastProgress.withLockedValue { $0 = now }
    }

    /// When the operation is given up unless it makes progress first (as time passed since the watchdog was made).
    var deadline: Duration {
        lastProgress.withLockedValue { $0 } + timeout
    }

    /// Whether the deadline has passed.
    var hasExpired: Bool { deadline <= stopwatch.elapsed() }

    /// Sleeps until the current deadline (which later progress may have moved on).
    func sleepUntilDeadline() async throws {
        try await stopwatch.sleep(untilElapsed: deadline)
    }
}

/// Runs `operation` and returns its result, or throws ``DeadlineExceeded`` once it made no progress for `timeout`.
///
/// Unlike a task group, this returns on time even when `operation` ignores cancellation or hangs forever: the
/// operation runs in its own unstructured task, which is cancelled and left behind when the deadline passes. So
/// nothing that awaits this function can hang longer than the deadline, whatever the backend does.
///
/// - Parameters:
///   - clock: the clock that measures `timeout` (the mount's ``FUSEMount/Configuration/clock``).
///   - onAbandoned: called with the result of an operation that succeeded after the deadline had passed, to undo
///     what nobody will use (an open handle, say).
func withDeadline<T: Sendable>(
    _ timeout: Duration, clock: any Clock<Duration> = ContinuousClock(),
    _ operation: @escaping @Sendable (Watchdog) async throws -> T,
    onAbandoned: @escaping @Sendable (T) -> Void = { _ in }
) async throws -> T {
    let watchdog = Watchdog(timeout: timeout, clock: clock)
    let outcome = DeadlineOutcome<T>()
    return try await withCheckedThrowingContinuation { continuation in
        outcome.install(continuation)
        let work = Task {
            do {
                let value = try await operation(watchdog)
                if !outcome.finish(.success(value)) { onAbandoned(value) }
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let timer = Task {
            while !outcome.isFinished {
                if watchdog.hasExpired {
                    outcome.finish(.failure(DeadlineExceeded(timeout: timeout)))
                    work.cancel()
                    return
                }
                do {
                    try await watchdog.sleepUntilDeadline()
                } catch {
                    return
                }
            }
        }
        outcome.attach(timer: timer)
    }
}

/// The one-shot result of ``withDeadline(_:clock:_:onAbandoned:)``: whichever of the work and the timer finishes first resumes.
private final class DeadlineOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var timer: Task<Void, Never>?
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    var isFinished: Bool { state.withLockedValue { $0.finished } }

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLockedValue { $0.continuation = continuation }
    }

    func attach(timer: Task<Void, Never>) {
        let cancelNow = state.withLockedValue { state in
            if state.finished { return true }
            state.timer = timer
            return false
        }
        if cancelNow { timer.cancel() }
    }

    /// Delivers `result` unless another one was delivered first; returns whether it was delivered.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let taken = state.withLockedValue { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?)? in
            guard !state.finished else { return nil }
            state.finished = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        guard let taken else { return false }
        taken.1?.cancel()
        taken.0?.resume(with: result)
        return true
    }
}
