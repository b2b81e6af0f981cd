import WOPIStorage

/// One named behaviour that every ``LockStore`` must show, runnable against any store.
///
/// ```swift
/// @Test(arguments: LockStoreConformance.cases)
/// func conformance(_ c: LockStoreConformanceCase) async throws {
///     try await c.run { try await makeMyLockStore() }
/// }
/// ```
public struct LockStoreConformanceCase: Sendable, CustomStringConvertible {
    /// A short sentence naming the behaviour checked.
    public let name: String
    private let body: @Sendable (any LockStore) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any LockStore) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the case against a store made by `makeStore` (called once, for this case alone).
    ///
    /// - Throws: ``ConformanceFailure`` when the store does not behave as required, or the error of `makeStore`.
    public func run(_ makeStore: @escaping @Sendable () async throws -> any LockStore) async throws {
        let store = try await makeStore()
        do {
            try await body(store)
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("case \"\(name)\" failed with an unexpected error", underlying: error)
        }
    }

    public var description: String { name }
}
