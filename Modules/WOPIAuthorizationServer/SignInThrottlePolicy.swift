public import Foundation

/// How the ``OAuthAuthorizationServer`` slows down password and client-secret guessing: a pure function from the
/// failures counted against a key to the time it stays locked.
///
/// After `allowance` failures in a row a key is locked for ``initialDelay``, and each further failure doubles the
/// delay, up to ``maximumDelay``: with the defaults an account's sixth wrong password waits 1 s, its tenth 16 s,
/// its fifteenth the full 15 minutes. A success resets the account (or client); counts are forgotten after
/// ``forgetAfter`` without a failure. Unknown accounts are counted exactly like known ones, so a lock-out never
/// tells whether an account exists.
public struct SignInThrottlePolicy: Sendable {
    /// Failures in a row that one account (or OAuth client) may have before it is slowed down.
    public var accountAllowance = 5
    /// Failures in a row that one client address may have, over every account, before it is slowed down (higher,
    /// because several honest users may share an address behind NAT).
    public var addressAllowance = 20
    /// The lock-out after the first failure past the allowance.
    public var initialDelay: TimeInterval = 1
    /// The longest lock-out.
    public var maximumDelay: TimeInterval = 15 * 60
    /// How long after its last failure a count is forgotten.
    public var forgetAfter: TimeInterval = 24 * 60 * 60
    /// Whether the client address is the last entry of `X-Forwarded-For` instead of the connection's peer. Turn it
    /// on only behind a reverse proxy that appends that header (nginx's `$proxy_add_x_forwarded_for`, HAProxy's
    /// `option forwardfor`) and that clients cannot reach around: otherwise a client chooses its own address.
    public var trustsForwardedFor = false
    /// Whether the server throttles at all (tests of other features may turn it off).
    public var isEnabled = true

    /// Creates the default policy.
    public init() {}

    /// Until when a key with `failures` (of which at most `allowance` are free) is locked; `nil` when it is not.
    public func lockedUntil(_ failures: SignInFailures?, allowance: Int) -> Date? {
        guard isEnabled, let failures, failures.count >= allowance else { return nil }
        let doublings = min(failures.count - allowance, 62)
        let delay = min(initialDelay * pow(2, Double(doublings)), maximumDelay)
        return failures.last.addingTimeInterval(delay)
    }
}
