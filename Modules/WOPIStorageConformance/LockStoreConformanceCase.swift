public import Foundation
public import WOPIStorage

/// One named behaviour that every ``LockStore`` must show, runnable against any store.
///
/// The kit controls time: `makeStore` receives the clock the store must read to decide expiry (the `now:` closure
/// that ``InMemoryLockStore`` and `SQLiteLockStore` take), so the expiry cases move it forward instead of
/// sleeping.
///
/// A store shared by several hosts passes `peer`: a second store over the same data, as another host opens it.
/// The cross-host cases then lock through one and check through the other; without `peer` they use one store.
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
    private let body: @Sendable (any LockStore, any LockStore, ConformanceClock) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any LockStore, ConformanceClock) async throws -> Void) {
        self.name = name
        self.body = { store, _, clock in try await body(store, clock) }
    }

    init(
        crossHost name: String,
        _ body: @escaping @Sendable (any LockStore, any LockStore, ConformanceClock) async throws -> Void
    ) {
        self.name = name
        self.body = body
    }

    /// Runs the case against a store made by `makeStore` (called once, for this case alone).
    ///
    /// - Parameters:
    ///   - makeStore: makes the store under test, which must take the current time from the closure it is
    ///     given (a clock the case moves forward by hand, starting at the real time) rather than from `Date()`.
    ///   - peer: makes a second store over the same data as the first (another host's), reading the same clock;
    ///     `nil` for a store of one process.
    /// - Throws: ``ConformanceFailure`` when the store does not behave as required, or the error of `makeStore`.
    public func run(
        _ makeStore: @escaping @Sendable (_ now: @escaping @Sendable () -> Date) async throws -> any LockStore,
        peer: (@Sendable (_ now: @escaping @Sendable () -> Date) async throws -> any LockStore)? = nil
    ) async throws {
        let clock = ConformanceClock()
        let store = try await makeStore(clock.dateSource)
        let other = try await peer?(clock.dateSource) ?? store
        do {
            try await body(store, other, clock)
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("case \"\(name)\" failed with an unexpected error", underlying: error)
        }
    }

    public var description: String { name }
}
