/// Time measured on any `Clock<Duration>` from the moment the stopwatch was made, so code that takes an injected
/// `any Clock<Duration>` can keep deadlines without knowing the clock's `Instant` type.
package struct Stopwatch: Sendable {
    /// The time passed on the clock since the stopwatch was made.
    package let elapsed: @Sendable () -> Duration
    private let sleepUntilElapsed: @Sendable (Duration) async throws -> Void

    /// Starts a stopwatch on `clock`.
    package init(_ clock: any Clock<Duration>) {
        (elapsed, sleepUntilElapsed) = Self.start(clock)
    }

    private static func start(
        _ clock: some Clock<Duration>
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) {
        let start = clock.now
        return (
            { start.duration(to: clock.now) },
            { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
        )
    }

    /// Sleeps until `time` has passed since the stopwatch was made (returns at once when it has).
    package func sleep(untilElapsed time: Duration) async throws {
        try await sleepUntilElapsed(time)
    }
}
