public import Foundation
public import WOPIStorage

/// One named behaviour that every ``WOPIStorage/VersionedStorage`` must show, runnable against any backend that
/// keeps versions.
///
/// The kit sets the policy and controls time: `makeStorage` receives the ``WOPIStorage/VersionRetention`` the case
/// needs and the clock the backend must read (its `now:`), so the retention cases move the clock forward instead of
/// sleeping. A backend shared by several hosts passes `peer`: a second backend over the same data, as another host
/// opens it, with the same policy and clock; the cross-host cases save through one and read through the other.
///
/// ```swift
/// @Test(arguments: VersionConformance.cases)
/// func versions(_ c: VersionConformanceCase) async throws {
///     try await c.run { retention, now in try await makeMyBackend(retention: retention, now: now) }
/// }
/// ```
public struct VersionConformanceCase: Sendable, CustomStringConvertible {
    /// What a case gets: the backend (and its peer), and the clock it reads.
    struct Setup: Sendable {
        var storage: any VersionedStorage & GarbageCollectingStorage
        var peer: any VersionedStorage & GarbageCollectingStorage
        var clock: ConformanceClock
    }

    /// What makes a backend under test: the policy to apply and the clock to read.
    public typealias Factory =
        @Sendable (_ retention: VersionRetention, _ now: @escaping @Sendable () -> Date)
        async throws -> any VersionedStorage & GarbageCollectingStorage

    /// A short sentence naming the behaviour checked.
    public let name: String
    /// The policy the backend is made with.
    let retention: VersionRetention
    private let body: @Sendable (Setup) async throws -> Void

    init(_ name: String, retention: VersionRetention, _ body: @escaping @Sendable (Setup) async throws -> Void) {
        self.name = name
        self.retention = retention
        self.body = body
    }

    /// Runs the case against a backend made by `makeStorage` (called once, for this case alone).
    ///
    /// - Parameters:
    ///   - makeStorage: makes the backend under test with the given policy; it must take the current time from the
    ///     closure it is given (a clock the case moves forward by hand, starting at the real time).
    ///   - peer: makes a second backend over the same data as the first (another host's), or `nil`.
    /// - Throws: ``ConformanceFailure`` when the backend does not behave as required, or the error of a factory.
    public func run(_ makeStorage: @escaping Factory, peer: Factory? = nil) async throws {
        let clock = ConformanceClock()
        let storage = try await makeStorage(retention, clock.dateSource)
        let other = try await peer?(retention, clock.dateSource) ?? storage
        do {
            try await body(Setup(storage: storage, peer: other, clock: clock))
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("case \"\(name)\" failed with an unexpected error", underlying: error)
        }
    }

    public var description: String { name }
}
