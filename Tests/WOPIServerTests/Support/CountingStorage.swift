import Synchronization
import WOPIStorage

/// A backend that forwards to another and counts the calls it forwards, so a test can tell how many storage reads
/// an operation makes.
final class CountingStorage: StorageBackend {
    let base: any StorageBackend
    private let calls = Mutex(0)

    init(_ base: any StorageBackend) { self.base = base }

    /// The calls forwarded so far.
    var count: Int { calls.withLock { $0 } }

    private func counted<T>(_ call: () async throws -> T) async rethrows -> T {
        calls.withLock { $0 += 1 }
        return try await call()
    }

    func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        try await counted { try await base.rootContainer(forUser: user) }
    }

    func item(_ id: ItemID) async throws -> StorageItem {
        try await counted { try await base.item(id) }
    }

    func children(of container: ItemID) async throws -> [StorageItem] {
        try await counted { try await base.children(of: container) }
    }

    func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        try await counted { try await base.createContainer(named: name, in: parent) }
    }

    func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        try await counted { try await base.createFile(named: name, in: parent, content: content, overwrite: overwrite) }
    }

    func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await counted { try await base.readFile(id, range: range) }
    }

    func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        try await counted { try await base.writeFile(id, content: content, expectedVersion: expectedVersion) }
    }

    func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
        try await counted { try await base.rename(id, to: newName) }
    }

    func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws -> StorageItem {
        try await counted { try await base.move(id, to: newParent, newName: newName, replacing: replacing) }
    }

    func delete(_ id: ItemID) async throws {
        try await counted { try await base.delete(id) }
    }
}
