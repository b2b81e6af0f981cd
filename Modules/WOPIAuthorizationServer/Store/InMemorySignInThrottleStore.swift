public import Foundation

/// A ``SignInThrottleStore`` in memory: the reference implementation, for tests and single-process hosts.
///
/// The counts are lost when the process ends, so a restart lifts every lock-out; use ``FileSignInThrottleStore``
/// or `SQLiteSignInThrottleStore` to keep them.
public actor InMemorySignInThrottleStore: SignInThrottleStore {
    private var counts: [String: SignInFailures] = [:]

    /// Creates an empty store.
    public init() {}

    public func failures(_ key: String) -> SignInFailures? { counts[key] }

    public func recordFailure(_ key: String, at date: Date, forgetBefore: Date) -> SignInFailures {
        counts = counts.filter { $0.value.last >= forgetBefore }
        let updated =
            counts[key]?.adding(failureAt: date, forgetBefore: forgetBefore) ?? SignInFailures(count: 1, last: date)
        counts[key] = updated
        return updated
    }

    public func resetFailures(_ key: String) { counts[key] = nil }
}
