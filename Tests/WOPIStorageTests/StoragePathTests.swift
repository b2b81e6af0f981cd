import Testing
import WOPIStorage

@Suite("Paths below a container: lookup and mkdir -p")
struct StoragePathTests {
    @Test func createsEveryMissingFolderOnceAndFindsThemAgain() async throws {
        let storage = InMemoryStorage()
        let root = await storage.rootContainer(forUser: "ana").id
        let made = try await storage.createContainers(atPath: "/Reports//2026/Q4/", under: root)
        #expect(made.name == "Q4")
        #expect(try await storage.path(of: made.id) == "Reports/2026/Q4")
        let again = try await storage.createContainers(atPath: "Reports/2026/Q4", under: root)
        #expect(again.id == made.id)
        #expect(try await storage.children(of: root).count == 1)
        #expect(try await storage.createContainers(atPath: "", under: root).id == root)
    }

    @Test func racingCreatorsAgreeOnOneFolder() async throws {
        let storage = InMemoryStorage()
        let root = await storage.rootContainer(forUser: "ana").id
        let ids = try await withThrowingTaskGroup(of: ItemID.self) { group in
            for _ in 0..<8 { group.addTask { try await storage.createContainers(atPath: "A/B", under: root).id } }
            return try await group.reduce(into: Set<ItemID>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
    }

    @Test func refusesToClimbOrToGoThroughAFile() async throws {
        let storage = InMemoryStorage()
        let root = await storage.rootContainer(forUser: "ana").id
        _ = try await storage.createFile(named: "f.txt", in: root, content: .empty, overwrite: false)
        await #expect(throws: StorageError.self) { try await storage.createContainers(atPath: "../x", under: root) }
        await #expect(throws: StorageError.self) { try await storage.createContainers(atPath: "f.txt/x", under: root) }
    }
}
