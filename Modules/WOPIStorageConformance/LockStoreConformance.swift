import Foundation
import WOPIStorage

/// The conformance kit for ``LockStore``: reads, compare-and-swap, expiry and racing swaps.
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
        ]
    }

    private static func lock(_ id: String, in seconds: TimeInterval = 1800) -> FileLock {
        FileLock(id: id, expiresAt: Date().addingTimeInterval(seconds))
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

    static func unlocked(_ store: any LockStore) async throws {
        try expectLock(try await store.lock(on: .random()), nil, "of a never-locked file")
    }

    static func swapFromNil(_ store: any LockStore) async throws {
        let file = ItemID.random()
        let other = ItemID.random()
        let taken = lock("lock-1")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: nil, new: taken), .swapped, "CAS(nil → lock-1)")
        try expectLock(try await store.lock(on: file), taken, "after CAS(nil → lock-1)")
        try expectLock(try await store.lock(on: other), nil, "of another file")
    }

    static func wrongExpected(_ store: any LockStore) async throws {
        let file = ItemID.random()
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "ghost", new: lock("x")), current: nil,
            "CAS(ghost → x) on an unlocked file")
        let held = lock("held")
        _ = try await store.compareAndSwap(file: file, expected: nil, new: held)
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "other", new: lock("other-2")), current: held,
            "CAS(other → other-2) on a locked file")
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: nil, new: lock("thief")), current: held,
            "CAS(nil → thief) on a locked file")
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "HELD", new: nil), current: held,
            "CAS(HELD → nil) (lock IDs compare byte for byte)")
        try expectLock(try await store.lock(on: file), held, "after refused swaps")
    }

    static func refreshAndRelease(_ store: any LockStore) async throws {
        let file = ItemID.random()
        _ = try await store.compareAndSwap(file: file, expected: nil, new: lock("L", in: 60))
        let refreshed = lock("L", in: 3600)
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: "L", new: refreshed), .swapped, "a refresh (L → L)")
        try expectLock(try await store.lock(on: file), refreshed, "after a refresh")
        let replaced = lock("M")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: "L", new: replaced), .swapped, "a relock (L → M)")
        try expectLock(try await store.lock(on: file), replaced, "after a relock")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: "M", new: nil), .swapped, "a release (M → nil)")
        try expectLock(try await store.lock(on: file), nil, "after a release")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: nil, new: lock("N")), .swapped, "a lock after release")
    }

    static func expiry(_ store: any LockStore) async throws {
        let file = ItemID.random()
        // Wide margins: a loaded machine (CI, a durable database syncing to disk) must not make this flaky. A 3 s
        // lock was once gone by the very next read, with the whole test suite on 2 cores.
        _ = try await store.compareAndSwap(file: file, expected: nil, new: lock("short", in: 10))
        try Check.expectEqual(try await store.lock(on: file)?.id, "short", "a lock before it expires")
        try await Task.sleep(for: .milliseconds(10_500))
        try expectLock(try await store.lock(on: file), nil, "after expiry")
        try expectConflict(
            try await store.compareAndSwap(file: file, expected: "short", new: lock("late")), current: nil,
            "CAS(expired → late)")
        let next = lock("next")
        try Check.expectEqual(
            try await store.compareAndSwap(file: file, expected: nil, new: next), .swapped, "CAS(nil → next) on expiry")
        try expectLock(try await store.lock(on: file), next, "after taking an expired lock")
    }

    static func race(_ store: any LockStore) async throws {
        let file = ItemID.random()
        let contenders = 16
        let outcomes = try await withThrowingTaskGroup(of: (Int, LockSwapOutcome).self) { group in
            for contender in 0..<contenders {
                group.addTask {
                    (
                        contender,
                        try await store.compareAndSwap(file: file, expected: nil, new: lock("racer-\(contender)"))
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
