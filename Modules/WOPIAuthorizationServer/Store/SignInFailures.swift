public import Foundation

/// The failed sign-ins counted against one key (an account, a client address or an OAuth client) of a
/// ``SignInThrottleStore``.
public struct SignInFailures: Sendable, Codable, Equatable {
    /// How many attempts failed in a row, since the last success or since the count was forgotten.
    public var count: Int
    /// When the last of them failed.
    public var last: Date

    /// Creates a count.
    public init(count: Int, last: Date) {
        self.count = count
        self.last = last
    }

    /// This count after one more failure at `date`: a count whose last failure is before `forgetBefore` starts
    /// again at one. Every ``SignInThrottleStore`` applies this rule.
    public func adding(failureAt date: Date, forgetBefore: Date) -> SignInFailures {
        SignInFailures(count: last < forgetBefore ? 1 : count + 1, last: max(last, date))
    }
}
