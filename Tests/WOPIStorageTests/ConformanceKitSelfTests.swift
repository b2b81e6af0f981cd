import Foundation
import Testing
import WOPIStorage
import WOPIStorageConformance

/// The kit must catch broken implementations, not only pass correct ones.
@Suite("The conformance kit catches broken implementations")
struct ConformanceKitSelfTests {
    /// An in-memory backend that ignores `expectedVersion`.
    struct UnconditionalWrites: StorageBackend {
        let base = InMemoryStorage()
        func rootContainer(forUser user: String) async throws -> ContainerMetadata {
            await base.rootContainer(forUser: user)
        }
        func item(_ id: ItemID) async throws -> StorageItem { try await base.item(id) }
        func children(of container: ItemID) async throws -> [StorageItem] { try await base.children(of: container) }
        func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
            try await base.createContainer(named: name, in: parent)
        }
        func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
            -> FileMetadata
        {
            try await base.createFile(named: name, in: parent, content: content, overwrite: overwrite)
        }
        func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
            try await base.readFile(id, range: range)
        }
        func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
            try await base.writeFile(id, content: content, expectedVersion: nil)
        }
        func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
            try await base.rename(id, to: newName)
        }
        func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws -> StorageItem {
            try await base.move(id, to: newParent, newName: newName, replacing: replacing)
        }
        func delete(_ id: ItemID) async throws { try await base.delete(id) }
    }

    /// A lock store whose compare-and-swap reads and writes in two steps with a suspension between.
    actor RacyLockStore: LockStore {
        var locks: [ItemID: FileLock] = [:]
        func lock(on file: ItemID) -> FileLock? { locks[file].flatMap { $0.expiresAt > Date() ? $0 : nil } }
        func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async -> LockSwapOutcome {
            let current = lock(on: file)
            guard current?.id == expected else { return .conflict(current: current) }
            await Task.yield()
            locks[file] = new
            return .swapped
        }
        // Coauth locks are not what this store gets wrong: they come from the reference store.
        let coauth = InMemoryLockStore()
        func coauthLocks(on file: ItemID) async -> CoauthLockSet { await coauth.coauthLocks(on: file) }
        func compareAndSwapCoauth(file: ItemID, expectedRevision: Int64, new: [CoauthLock]) async
            -> CoauthSwapOutcome
        { await coauth.compareAndSwapCoauth(file: file, expectedRevision: expectedRevision, new: new) }
        func heldLocks() async -> [HeldLock] { await coauth.heldLocks() }
        func breakLocks(on file: ItemID) async -> Int { await coauth.breakLocks(on: file) }
    }

    @Test func aBackendIgnoringExpectedVersionFails() async throws {
        let conformance = try #require(StorageConformance.cases.first { $0.name.contains("expectedVersion") })
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await conformance.run { UnconditionalWrites() }
        }
        #expect(failure?.message.contains("versionMismatch") == true)
        #expect(failure?.description.contains("StorageConformance+Content.swift") == true)
    }

    @Test func aRacyLockStoreFails() async throws {
        let conformance = try #require(LockStoreConformance.cases.first { $0.name.contains("racing") })
        await #expect(throws: ConformanceFailure.self) {
            try await conformance.run { _ in RacyLockStore() }
        }
    }

    @Test func aLockStoreIgnoringTheKitsClockFailsTheExpiryCase() async throws {
        let conformance = try #require(LockStoreConformance.cases.first { $0.name.contains("expired") })
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await conformance.run { _ in InMemoryLockStore() }  // reads the real time, not the kit's clock
        }
        #expect(failure?.message.contains("after expiry") == true)
    }

    @Test func caseNamesAreUniqueAndDescribed() {
        let names = StorageConformance.cases.map(\.name) + LockStoreConformance.cases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(StorageConformance.cases.count >= 24)
        #expect(StorageConformance.cases.allSatisfy { $0.description == $0.name })
    }
}
