import Foundation
public import WOPIAuthorizationServer
public import WOPIStorageConformance

/// The conformance kit for ``WOPIAuthorizationServer/SignInThrottleStore``: counting, resetting, forgetting old
/// counts, concurrent failures across two instances on one store, and what a second instance sees.
///
/// Keys are random, so the cases also run against a store that holds other counts.
public enum SignInThrottleStoreConformance {
    /// Every sign-in throttle store conformance case.
    public static var cases: [ConformanceCase<any SignInThrottleStore>] {
        [
            .init("failures count up per key, and a reset forgets one key alone", counting),
            .init("a count whose last failure is before forgetBefore starts again at one", forgetting),
            .init("a second instance on the same store sees and resets the counts", secondInstance),
            .init("32 concurrent failures across two instances are all counted", concurrentFailures),
        ]
    }

    typealias Opener = ConformanceCase<any SignInThrottleStore>.Opener

    private static func key(_ kind: String) -> String { "\(kind):kit-" + OAuthTokenHash.randomToken().prefix(12) }

    /// A whole second, so that stores keeping times as seconds since 1970 in a `REAL` or text read it back equal.
    private static let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    private static let longAgo = start.addingTimeInterval(-3600)

    static func counting(_ open: @escaping Opener) async throws {
        let store = try await open()
        let account = key("account")
        let address = key("address")
        try Check.expect(try await store.failures(account) == nil, "an unknown key has no failures")
        for count in 1...3 {
            let recorded = try await store.recordFailure(
                account, at: start.addingTimeInterval(Double(count)), forgetBefore: longAgo)
            try Check.expectEqual(
                recorded, SignInFailures(count: count, last: start.addingTimeInterval(Double(count))),
                "failure \(count) of one key")
        }
        _ = try await store.recordFailure(address, at: start, forgetBefore: longAgo)
        try Check.expectEqual(
            try await store.failures(account), SignInFailures(count: 3, last: start.addingTimeInterval(3)),
            "failures(_:) after three failures")
        try await store.resetFailures(account)
        try Check.expect(try await store.failures(account) == nil, "a reset key has no failures")
        try Check.expectEqual(
            try await store.failures(address)?.count, 1, "resetting one key leaves another key's count")
        try await store.resetFailures(key("account"))
    }

    static func forgetting(_ open: @escaping Opener) async throws {
        let store = try await open()
        let account = key("account")
        _ = try await store.recordFailure(account, at: longAgo, forgetBefore: longAgo.addingTimeInterval(-60))
        _ = try await store.recordFailure(account, at: longAgo, forgetBefore: longAgo.addingTimeInterval(-60))
        let recorded = try await store.recordFailure(account, at: start, forgetBefore: start.addingTimeInterval(-60))
        try Check.expectEqual(
            recorded, SignInFailures(count: 1, last: start), "a failure after the old ones were forgotten")
    }

    static func secondInstance(_ open: @escaping Opener) async throws {
        let first = try await open()
        let second = try await open()
        let account = key("account")
        _ = try await first.recordFailure(account, at: start, forgetBefore: longAgo)
        let recorded = try await second.recordFailure(account, at: start, forgetBefore: longAgo)
        try Check.expectEqual(recorded.count, 2, "a failure through the second instance counts on the first's")
        try Check.expectEqual(try await first.failures(account)?.count, 2, "the first instance sees both failures")
        try await second.resetFailures(account)
        try Check.expect(try await first.failures(account) == nil, "a reset through the second instance")
    }

    static func concurrentFailures(_ open: @escaping Opener) async throws {
        let stores = [try await open(), try await open()]
        let account = key("account")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<32 {
                let store = stores[index % stores.count]
                group.addTask { try await store.recordFailure(account, at: start, forgetBefore: longAgo).count }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts.sorted()
        }
        try Check.expectEqual(counts, Array(1...32), "the counts returned to 32 concurrent failures")
        try Check.expectEqual(try await stores[0].failures(account)?.count, 32, "the count after 32 failures")
    }
}
