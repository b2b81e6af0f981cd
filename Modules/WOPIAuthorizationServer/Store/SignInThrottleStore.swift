public import Foundation

/// Where the ``OAuthAuthorizationServer`` counts failed sign-ins and client authentications, so that the back-off
/// of ``SignInThrottlePolicy`` holds across restarts and, with a shared store, across host processes.
///
/// Open for third-party conformances (a database, a shared cache); `WOPIServerConformance`'s
/// `SignInThrottleStoreConformance` checks one. Keys are opaque strings the server builds (`account:…`,
/// `address:…`, `client:…`); they may hold user names and addresses but never a password. Every method is one
/// atomic step: in particular ``recordFailure(_:at:forgetBefore:)`` must count every one of many concurrent
/// failures, even when several processes share the store. Implementations may drop counts whose last failure is
/// before the `forgetBefore` of a later call, so that the store stays small.
///
/// ``InMemorySignInThrottleStore`` is the reference; ``FileSignInThrottleStore`` shares one JSON file between
/// processes; `SQLiteSignInThrottleStore` (in `SQLiteServerStores`) keeps the counts in the host's database.
public protocol SignInThrottleStore: Sendable {
    /// The failures counted against `key`, or `nil` when none are.
    func failures(_ key: String) async throws -> SignInFailures?

    /// Atomically counts one failure against `key` at `date` (see ``SignInFailures/adding(failureAt:forgetBefore:)``:
    /// a count whose last failure is before `forgetBefore` starts again) and returns the new count.
    func recordFailure(_ key: String, at date: Date, forgetBefore: Date) async throws -> SignInFailures

    /// Forgets the failures counted against `key` (after a successful sign-in); nothing happens when there are none.
    func resetFailures(_ key: String) async throws
}
