public import Foundation
public import WOPIStorage

/// One named behaviour that every ``LockStore`` must show, runnable against any store.
///
/// The kit controls time: `makeStore` receives the clock the store must read to decide expiry (the `now:` closure
/// that ``InMemoryLockStore`` and `SQLiteLockStore` take), so the expiry case moves it forward instead of
/// sleeping.
///
/// ```swift
/// @Test(arguments: LockStoreConformance.cases)
/// func conformance(_ c: LockStoreConformanceCase) async throws {
///     try await c.run { now in try await makeMyLockStore(now: now) }
/// }
/// ```
public struct LockStoreConformanceCase: Sendable, CustomStringConvertible {
    /// A short sentence naming the behaviour checked.
    public let name: String
    private let body: @Sendable (any LockStore, ConformanceClock) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any LockStore, ConformanceClock) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the case against a store made by `makeStore` (called once, for this case alone).
    ///
    /// - Parameter makeStore: makes the store under test, which must take the current time from the closure it is
    ///   given (a clock the case moves forward by hand, starting at the real time) rather than from `Date()`.
    /// - Throws: ``ConformanceFailure`` when the store does not behave as required, or the error of `makeStore`.
    public func run(
        _ makeStore: @escaping @Sendable (_ now: @escaping @Sendable () -> Date) async throws -> any LockStore
    ) async throws {
        let clock = ConformanceClock()
        let store = try await makeStore(clock.dateSource)
        do {
            try await body(store, clock)
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("case \"\(name)\" failed with an unexpected error", underlying: error)
        }
    }

    public var description: String { name }
}
