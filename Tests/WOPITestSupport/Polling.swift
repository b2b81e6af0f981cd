/// Waiting for what happens in its own time: a child process starting, a browser loading a page, a background task
/// finishing. The one place a test polls; time that a test controls comes from a ``TestClock`` instead.
public enum Polling {
    /// How long a test waits for something that should happen soon before it calls that a failure: a minute. A poll
    /// returns as soon as its condition holds, so only a failing test ever waits this long; and the whole suite runs
    /// at once on two cores beside browsers, host processes and databases, where a page that loads in 200 ms alone
    /// can take ten seconds.
    public static let patience: Duration = .seconds(60)

    /// Calls `probe` every `interval` until it returns a value, and returns that value; after `timeout`, probes once
    /// more and returns its answer, nil if it still has none.
    public static func first<T>(
        within timeout: Duration = patience, every interval: Duration = .milliseconds(20),
        _ probe: () async throws -> T?
    ) async throws -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = try await probe() { return value }
            try await Task.sleep(for: interval)
        }
        return try await probe()
    }

    /// Whether `condition` holds within `timeout`, checked every `interval` (and once more at the deadline).
    public static func until(
        within timeout: Duration = patience, every interval: Duration = .milliseconds(20),
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        try await first(within: timeout, every: interval) { try await condition() ? true : nil } ?? false
    }
}
