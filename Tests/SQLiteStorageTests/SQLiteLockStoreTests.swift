import Foundation
import SQLiteStorage
import Testing
import WOPIStorage
import WOPITestSupport

@Suite("SQLite lock store")
struct SQLiteLockStoreTests {
    @Test("16 concurrent compare-and-swaps from two pools: exactly one wins")
    func casRace() async throws {
        let file = try TemporaryDatabaseFile()
        let stores = try (0..<2).map { _ in try SQLiteLockStore(database: file.openDatabase()) }
        let target = ItemID.random()
        let expiry = Date().addingTimeInterval(1_800)
        let outcomes = try await withThrowingTaskGroup(of: (String, LockSwapOutcome).self) { group in
            for contender in 0..<16 {
                group.addTask {
                    let lock = FileLock(id: "lock-\(contender)", expiresAt: expiry)
                    return (
                        lock.id, try await stores[contender % 2].compareAndSwap(file: target, expected: nil, new: lock)
                    )
                }
            }
            return try await group.reduce(into: [(String, LockSwapOutcome)]()) { $0.append($1) }
        }
        let winners = outcomes.filter { $0.1 == .swapped }.map(\.0)
        #expect(winners.count == 1)
        let winner = try #require(winners.first)
        let current = try #require(try await stores[1].lock(on: target))
        #expect(current.id == winner)
        #expect(abs(current.expiresAt.timeIntervalSince(expiry)) < 0.001)
        for (_, outcome) in outcomes where outcome != .swapped {
            #expect(outcome == .conflict(current: current))
        }
    }

    @Test("swaps follow the expected lock ID and an expired lock counts as none")
    func expiry() async throws {
        let file = try TemporaryDatabaseFile()
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let store = try SQLiteLockStore(database: file.openDatabase(), now: clock.dateSource)
        let target = ItemID.random()
        let lock = FileLock(id: "A", expiresAt: clock.date.addingTimeInterval(60))
        #expect(try await store.compareAndSwap(file: target, expected: nil, new: lock) == .swapped)
        #expect(try await store.compareAndSwap(file: target, expected: "B", new: nil) == .conflict(current: lock))
        let refreshed = FileLock(id: "A", expiresAt: clock.date.addingTimeInterval(120))
        #expect(try await store.compareAndSwap(file: target, expected: "A", new: refreshed) == .swapped)

        clock.advance(by: 121)
        #expect(try await store.lock(on: target) == nil)
        #expect(try await store.compareAndSwap(file: target, expected: "A", new: nil) == .conflict(current: nil))
        let next = FileLock(id: "C", expiresAt: clock.date.addingTimeInterval(60))
        #expect(try await store.compareAndSwap(file: target, expected: nil, new: next) == .swapped)
        #expect(try await store.compareAndSwap(file: target, expected: "C", new: nil) == .swapped)
        #expect(try await store.lock(on: target) == nil)

        _ = try await store.compareAndSwap(file: .random(), expected: nil, new: next)
        clock.advance(by: 61)
        #expect(try await store.purgeExpired() == 1)
    }
}
