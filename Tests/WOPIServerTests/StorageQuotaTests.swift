import HTTPTypes
import NIOCore
import Testing
import WOPIServer
import WOPIStorage

@Suite struct StorageQuotaTests {
    static let bob = WOPIUser(id: "bob", signInName: "bob", displayName: "Bob", passwordHash: nil)

    @Test("the owner's bytes decide, whoever saves; a change of unknown size passes until the quota is used up")
    func theOwnerPays() async throws {
        let storage = InMemoryStorage()
        let root = await storage.rootContainer(forUser: "ana")
        let file = try await storage.createFile(
            named: "a.bin", in: root.id, content: ByteStream(buffer: ByteBuffer(repeating: 1, count: 600)),
            overwrite: false)
        let quota = StorageQuota(storage: storage, bytesPerUser: 1_000)
        try await quota.willChange(.putFile(file, PutFileDetails(size: 400)), by: Self.bob)
        let veto = await #expect(throws: ContentVeto.self) {
            try await quota.willChange(.putFile(file, PutFileDetails(size: 401)), by: Self.bob)
        }
        #expect(veto?.status.code == 413)
        #expect(veto?.message.contains("The files of ana, the file's owner, take 600 bytes of a 1000 bytes") == true)
        try await quota.willChange(.create(name: "b.bin", in: root, isContainer: false), by: Self.bob)
        try await quota.willChange(.putFile(file, PutFileDetails()), by: Self.bob)

        _ = try await storage.writeFile(
            file.id, content: ByteStream(buffer: ByteBuffer(repeating: 2, count: 400)), expectedVersion: file.version)
        await #expect(throws: ContentVeto.self, "1000 bytes used: a new file") {
            try await quota.willChange(.create(name: "b.bin", in: root, isContainer: false), by: Self.bob)
        }
        try await quota.willChange(.create(name: "folder", in: root, isContainer: true), by: Self.bob)
        let unlimited = StorageQuota(storage: storage) { owner in owner == "ana" ? nil : 1 }
        try await unlimited.willChange(.putFile(file, PutFileDetails(size: 1 << 40)), by: Self.bob)
    }
}
