import Foundation
import WOPIStorage

/// The conformance kit for ``LockStore``: reads, compare-and-swap, expiry and racing swaps, of WOPI locks and
/// of coauth tables, their exclusion, the operator's listing, and the same across two hosts.
public enum LockStoreConformance {
    /// Every lock store conformance case.
    public static var cases: [LockStoreConformanceCase] {
        [
            .init("an unlocked file has no lock", unlocked),
            .init("compare-and-swap from nil sets the lock", swapFromNil),
            .init("compare-and-swap with a wrong expected lock conflicts", wrongExpected),
            .init("a lock can be refreshed and released", refreshAndRelease),
            .init("an expired lock counts as no lock", expiry),
            .init("of 16 racing swaps from nil exactly one wins", race),
        ] + coauthCases
    }

    private static func lock(_ id: String, in seconds: TimeInterval = 1800, on clock: ConformanceClock) -> FileLock {
        FileLock(id: id, expiresAt: clock.now.addingTimeInterval(seconds))
    }

    private static func expectLock(
        _ actual: FileLock?, _ expected: FileLock?, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try Check.expectEqual(actual?.id, expected?.id, "the lock ID \(what)", file: file, line: line)
        if let actual, let expected {
            try Check.expect(
                abs(actual.expiresAt.timeIntervalSince(expected.expiresAt)) < 1,
                "the lock's expiry \(what): got \(actual.expiresAt), expected \(expected.expiresAt)",
                file: file, line: line)
        }
    }

    private static func expectConflict(
        _ outcome: LockSwapOutcome, current: FileLock?, _ what: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        guard case .conflict(let actual) = outcome else {
            throw ConformanceFailure("\(what) must conflict, but swapped", file: file, line: line)
        }
        try expectLock(actual, current, "reported by the conflict of \(what)", file: file, line: line)
    }

    static func unlocked(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        try expectLock(try await store.lock(on: .random()), nil, "of a never-locked file")
    }

    static func swapFromNil(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        let other = ItemID.random()
        let taken = lock("lock-1", on: clock)
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: nil, new: taken), .swapped, "CAS(nil → lock-1)")
        try expectLock(try await store.lock(on: file), taken, "after CAS(nil → lock-1)")
        try expectLock(try await store.lock(on: other), nil, "of another file")
    }

    static func wrongExpected(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "ghost", new: lock("x", on: clock)), current: nil,
            "CAS(ghost → x) on an unlocked file")
        let held = lock("held", on: clock)
        _ = try await store.compareAndSwap(file: file, expected: nil, new: held)
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "other", new: lock("other-2", on: clock)),
            current: held,
            "CAS(other → other-2) on a locked file")
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: nil, new: lock("thief", on: clock)), current: held,
            "CAS(nil → thief) on a locked file")
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "HELD", new: nil), current: held,
            "CAS(HELD → nil) (lock IDs compare byte for byte)")
        try expectLock(try await store.lock(on: file), held, "after refused swaps")
    }

    static func refreshAndRelease(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        _ = try await store.compareAndSwap(file: file, expected: nil, new: lock("L", in: 60, on: clock))
        let refreshed = lock("L", in: 3600, on: clock)
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: "L", new: refreshed), .swapped, "a refresh (L → L)")
        try expectLock(try await store.lock(on: file), refreshed, "after a refresh")
        let replaced = lock("M", on: clock)
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: "L", new: replaced), .swapped, "a relock (L → M)")
        try expectLock(try await store.lock(on: file), replaced, "after a relock")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: "M", new: nil), .swapped, "a release (M → nil)")
        try expectLock(try await store.lock(on: file), nil, "after a release")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: nil, new: lock("N", on: clock)), .swapped,
            "a lock after release")
    }

    static func expiry(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        // The store reads the kit's clock, so time passes only when the case moves it: no sleeping, no margins.
        _ = try await store.compareAndSwap(file: file, expected: nil, new: lock("short", in: 10, on: clock))
        try Check.expectEqual(try await store.lock(on: file)?.id, "short", "a lock before it expires")
        clock.advance(by: 9)
        try Check.expectEqual(try await store.lock(on: file)?.id, "short", "a lock 1 s before it expires")
        clock.advance(by: 1.5)
        try expectLock(try await store.lock(on: file), nil, "after expiry")
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "short", new: lock("late", on: clock)), current: nil,
            "CAS(expired → late)")
        let next = lock("next", on: clock)
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: nil, new: next), .swapped, "CAS(nil → next) on expiry")
        try expectLock(try await store.lock(on: file), next, "after taking an expired lock")
    }

    static func race(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        let contenders = 16
        let outcomes = try await withThrowingTaskGroup(of: (Int, LockSwapOutcome).self) { group in
            for contender in 0..<contenders {
                group.addTask {
                    (
                        contender,
                        try await store.compareAndSwap(
                            file: file, expected: nil, new: lock("racer-\(contender)", on: clock))
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.filter { $0.1 == .swapped }.map(\.0)
        try Check.expectEqual(winners.count, 1, "the number of racing swaps from nil that succeeded")
        try Check.expectEqual(try await store.lock(on: file)?.id, "racer-\(winners[0])", "the lock after the race")
    }
}
