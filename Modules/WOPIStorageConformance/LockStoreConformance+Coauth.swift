import Foundation
import WOPIStorage

/// The coauth-lock cases of the kit: the coauth table's compare-and-swap, its exclusion with WOPI locks, expiry by
/// the store's clock, racing swaps, the operator's listing and breaking, and the same across two hosts.
extension LockStoreConformance {
    static var coauthCases: [LockStoreConformanceCase] {
        [
            .init("a never-locked file has an empty coauth table", coauthUnlocked),
            .init("a coauth swap from the read revision stores every row whole", coauthSwap),
            .init("a coauth swap from a stale revision conflicts", coauthStale),
            .init("a WOPI lock keeps its holder, visible name and taken time", wopiLockDetails),
            .init("a WOPI lock and coauth locks exclude each other", exclusion),
            .init("an expired coauth lock counts as no lock", coauthExpiry),
            .init("of 16 racing coauth swaps from one revision exactly one wins", coauthRace),
            .init("held locks are listed and broken", listAndBreak),
            .init(crossHost: "another host sees the coauth table and its exclusion", crossHostExclusion),
            .init(crossHost: "racing WOPI and coauth locks from two hosts never both win", crossHostRace),
        ]
    }

    private static func coauth(
        _ id: String, _ type: CoauthLockType = .coauth, in seconds: TimeInterval = 600, on clock: ConformanceClock
    ) -> CoauthLock {
        CoauthLock(
            id: id, type: type, metadata: "meta-\(id)", holder: "Holder \(id)", takenAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(seconds))
    }

    private static func expectRows(
        _ actual: [CoauthLock], _ expected: [CoauthLock], _ what: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        try Check.expectEqual(actual.map(\.id), expected.map(\.id).sorted(), "the coauth lock IDs \(what)")
        for (got, want) in zip(actual, expected.sorted { $0.id < $1.id }) {
            try Check.expectEqual(got.type, want.type, "the type of \(want.id) \(what)", file: file, line: line)
            try Check.expectEqual(
                got.metadata, want.metadata, "the metadata of \(want.id) \(what)", file: file, line: line)
            try Check.expectEqual(got.holder, want.holder, "the holder of \(want.id) \(what)", file: file, line: line)
            try Check.expect(
                abs(got.expiresAt.timeIntervalSince(want.expiresAt)) < 0.001
                    && abs(got.takenAt.timeIntervalSince(want.takenAt)) < 0.001,
                "the times of \(want.id) \(what) must round-trip to the millisecond", file: file, line: line)
        }
    }

    static func coauthUnlocked(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        try Check.expect(try await store.coauthLocks(on: .random()).locks.isEmpty, "a never-locked file has no rows")
    }

    static func coauthSwap(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        let start = try await store.coauthLocks(on: file)
        let rows = [coauth("b", .coauthExclusive, on: clock), coauth("a", on: clock), coauth("c", on: clock)]
        try Check.expectEqual(
            try await store.compareAndSwapCoauth(file: file, expectedRevision: start.revision, new: rows), .swapped,
            "a coauth swap from the read revision")
        let after = try await store.coauthLocks(on: file)
        try expectRows(after.locks, rows, "after the swap")
        try Check.expect(after.revision != start.revision, "the revision must move on a swap")
        try Check.expect(try await store.coauthLocks(on: .random()).locks.isEmpty, "another file has no rows")
        try Check.expectEqual(
            try await store.compareAndSwapCoauth(file: file, expectedRevision: after.revision, new: []), .swapped,
            "emptying the table")
        try Check.expect(try await store.coauthLocks(on: file).locks.isEmpty, "an emptied table has no rows")
    }

    static func coauthStale(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        let start = try await store.coauthLocks(on: file)
        _ = try await store.compareAndSwapCoauth(
            file: file, expectedRevision: start.revision, new: [coauth("first", on: clock)])
        let outcome = try await store.compareAndSwapCoauth(
            file: file, expectedRevision: start.revision, new: [coauth("second", on: clock)])
        guard case .conflict(let current) = outcome else {
            throw ConformanceFailure("a coauth swap from a stale revision must conflict, but got \(outcome)")
        }
        try expectRows(current.locks, [coauth("first", on: clock)], "reported by the conflict")
        try expectRows(try await store.coauthLocks(on: file).locks, [coauth("first", on: clock)], "after the refusal")
    }

    static func wopiLockDetails(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        let lock = FileLock(
            id: "L", expiresAt: clock.now.addingTimeInterval(60), holder: "Ada", visibleName: "Ada L.",
            takenAt: clock.now)
        _ = try await store.compareAndSwap(file: file, expected: nil, new: lock)
        let read = try Check.require(try await store.lock(on: file), "the lock just taken")
        try Check.expectEqual(read.holder, "Ada", "the lock's holder")
        try Check.expectEqual(read.visibleName, "Ada L.", "the lock's visible name")
        try Check.expect(
            abs((read.takenAt ?? .distantPast).timeIntervalSince(clock.now)) < 0.001, "the lock's taken time")
    }

    static func exclusion(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        try await exclusion(store, store, clock)
    }

    private static func exclusion(_ first: any LockStore, _ second: any LockStore, _ clock: ConformanceClock)
        async throws
    {
        let file = ItemID.random()
        let wopi = FileLock(id: "W", expiresAt: clock.now.addingTimeInterval(600))
        _ = try await first.compareAndSwap(file: file, expected: nil, new: wopi)
        let table = try await second.coauthLocks(on: file)
        guard
            case .wopiLocked(let held) = try await second.compareAndSwapCoauth(
                file: file, expectedRevision: table.revision, new: [coauth("C", on: clock)])
        else { throw ConformanceFailure("a coauth lock on a WOPI-locked file must be refused with .wopiLocked") }
        try Check.expectEqual(held.id, "W", "the WOPI lock .wopiLocked reports")
        try Check.expect(try await first.coauthLocks(on: file).locks.isEmpty, "no coauth row after the refusal")
        _ = try await second.compareAndSwap(file: file, expected: "W", new: nil)
        let free = try await first.coauthLocks(on: file)
        try Check.expectEqual(
            try await first.compareAndSwapCoauth(
                file: file, expectedRevision: free.revision, new: [coauth("C", on: clock)]), .swapped,
            "a coauth lock once the WOPI lock is released")
        try Check.expectEqual(
            try await second.compareAndSwap(file: file, expected: nil, new: wopi), .coauthLocked,
            "a WOPI lock on a co-authored file")
        try Check.expectEqual(try await first.lock(on: file)?.id, nil, "the WOPI lock after the refusal")
    }

    static func coauthExpiry(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let file = ItemID.random()
        let start = try await store.coauthLocks(on: file)
        _ = try await store.compareAndSwapCoauth(
            file: file, expectedRevision: start.revision,
            new: [coauth("short", in: 10, on: clock), coauth("long", in: 100, on: clock)])
        clock.advance(by: 9)
        try Check.expectEqual(
            try await store.coauthLocks(on: file).locks.map(\.id), ["long", "short"], "the locks 1 s before expiry")
        clock.advance(by: 1.5)
        try Check.expectEqual(
            try await store.coauthLocks(on: file).locks.map(\.id), ["long"], "the locks after one expired")
        clock.advance(by: 100)
        try Check.expect(try await store.coauthLocks(on: file).locks.isEmpty, "no lock after both expired")
        try Check.expectEqual(
            try await store.compareAndSwap(
                file: file, expected: nil, new: FileLock(id: "W", expiresAt: clock.now.addingTimeInterval(60))),
            .swapped, "a WOPI lock once every coauth lock expired")
    }

    static func coauthRace(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        try await coauthRace(store, store, clock)
    }

    private static func coauthRace(_ first: any LockStore, _ second: any LockStore, _ clock: ConformanceClock)
        async throws
    {
        let file = ItemID.random()
        let start = try await first.coauthLocks(on: file)
        let outcomes = try await withThrowingTaskGroup(of: (Int, CoauthSwapOutcome).self) { group in
            for racer in 0..<16 {
                let store = racer.isMultiple(of: 2) ? first : second
                group.addTask {
                    let row = coauth("racer-\(racer)", on: clock)
                    return (
                        racer,
                        try await store.compareAndSwapCoauth(file: file, expectedRevision: start.revision, new: [row])
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.filter { $0.1 == .swapped }.map(\.0)
        try Check.expectEqual(winners.count, 1, "the number of racing coauth swaps that succeeded")
        try Check.expectEqual(
            try await second.coauthLocks(on: file).locks.map(\.id), ["racer-\(winners[0])"], "the table after the race")
    }

    static func listAndBreak(_ store: any LockStore, _ clock: ConformanceClock) async throws {
        let wopiFile = ItemID.random()
        let coauthFile = ItemID.random()
        _ = try await store.compareAndSwap(
            file: wopiFile, expected: nil,
            new: FileLock(id: "W", expiresAt: clock.now.addingTimeInterval(60), holder: "Ada", takenAt: clock.now))
        let table = try await store.coauthLocks(on: coauthFile)
        _ = try await store.compareAndSwapCoauth(
            file: coauthFile, expectedRevision: table.revision,
            new: [coauth("x", .coauthExclusive, on: clock), coauth("y", on: clock)])
        let held = try await store.heldLocks()
        let mine = held.filter { $0.file == wopiFile || $0.file == coauthFile }
        try Check.expectEqual(
            Set(mine.map { "\($0.file == wopiFile ? "w" : "c"):\($0.kind.rawValue):\($0.id):\($0.holder ?? "-")" }),
            ["w:WOPI:W:Ada", "c:CoauthExclusive:x:Holder x", "c:Coauth:y:Holder y"], "the listed locks")
        try Check.expectEqual(try await store.breakLocks(on: coauthFile), 2, "the locks broken on the coauth file")
        try Check.expect(try await store.coauthLocks(on: coauthFile).locks.isEmpty, "no coauth lock after the break")
        try Check.expectEqual(try await store.breakLocks(on: wopiFile), 1, "the locks broken on the WOPI file")
        try Check.expectEqual(
            try await store.compareAndSwap(
                file: wopiFile, expected: nil, new: FileLock(id: "N", expiresAt: clock.now.addingTimeInterval(60))),
            .swapped, "a new lock after the break")
        let after = try await store.coauthLocks(on: coauthFile)
        try Check.expectEqual(
            try await store.compareAndSwapCoauth(
                file: coauthFile, expectedRevision: after.revision, new: [coauth("z", on: clock)]), .swapped,
            "a new coauth lock after the break")
        clock.advance(by: 700)
        try Check.expect(
            try await store.heldLocks().allSatisfy { $0.file != wopiFile && $0.file != coauthFile },
            "expired locks are not listed")
    }

    static func crossHostExclusion(_ store: any LockStore, _ peer: any LockStore, _ clock: ConformanceClock)
        async throws
    {
        try await exclusion(store, peer, clock)
        let file = ItemID.random()
        let table = try await store.coauthLocks(on: file)
        _ = try await store.compareAndSwapCoauth(
            file: file, expectedRevision: table.revision, new: [coauth("seen", on: clock)])
        try Check.expectEqual(
            try await peer.coauthLocks(on: file).locks.map(\.id), ["seen"], "the other host's view of the table")
        try await coauthRace(store, peer, clock)
    }

    static func crossHostRace(_ store: any LockStore, _ peer: any LockStore, _ clock: ConformanceClock)
        async throws
    {
        for _ in 0..<4 {
            let file = ItemID.random()
            let start = try await peer.coauthLocks(on: file)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for racer in 0..<8 {
                    group.addTask {
                        _ = try await store.compareAndSwap(
                            file: file, expected: nil,
                            new: FileLock(id: "wopi-\(racer)", expiresAt: clock.now.addingTimeInterval(60)))
                    }
                    group.addTask {
                        _ = try await peer.compareAndSwapCoauth(
                            file: file, expectedRevision: start.revision, new: [coauth("coauth-\(racer)", on: clock)])
                    }
                }
                try await group.waitForAll()
            }
            let wopi = try await peer.lock(on: file)
            let rows = try await store.coauthLocks(on: file).locks
            try Check.expect(
                (wopi == nil) != rows.isEmpty,
                "exactly one mechanism must win a WOPI/coauth race: WOPI lock \(wopi?.id ?? "none"), \(rows.count) rows"
            )
        }
    }
}
