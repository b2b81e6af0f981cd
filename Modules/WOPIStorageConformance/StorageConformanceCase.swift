public import WOPIStorage

/// One named behaviour that every ``StorageBackend`` must show, runnable against any backend.
///
/// Run every case from a test target with a fresh backend per case:
///
/// ```swift
/// @Test(arguments: StorageConformance.cases)
/// func conformance(_ c: StorageConformanceCase) async throws {
///     try await c.run { try await makeMyBackend() }
/// }
/// ```
public struct StorageConformanceCase: Sendable, CustomStringConvertible {
    /// A short sentence naming the behaviour checked.
    public let name: String
    private let body: @Sendable (any StorageBackend) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any StorageBackend) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the case against a backend made by `makeBackend` (called once, for this case alone).
    ///
    /// - Throws: ``ConformanceFailure`` when the backend does not behave as required, or the error of
    ///   `makeBackend`.
    public func run(_ makeBackend: @escaping @Sendable () async throws -> any StorageBackend) async throws {
        let backend = try await makeBackend()
        do {
            try await body(backend)
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("case \"\(name)\" failed with an unexpected error", underlying: error)
        }
    }

    public var description: String { name }
}
