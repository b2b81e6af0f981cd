import Synchronization
import WOPIStorage

/// A backend that forwards to another after letting a test hook see (and delay or fail) each call, and another
/// hook change the content that `readFile` returns.
struct InterceptingStorage: StorageBackend {
    /// The call about to be forwarded.
    enum Call: Sendable {
        case move(ItemID, to: ItemID)
        case other
    }

    let base: any StorageBackend
    var content: @Sendable (FileContent) -> FileContent = { $0 }
    let intercept: @Sendable (Call) async throws -> Void

    func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        try await intercept(.other)
        return try await base.rootContainer(forUser: user)
    }

    func item(_ id: ItemID) async throws -> StorageItem {
        try await intercept(.other)
        return try await base.item(id)
    }

    func children(of container: ItemID) async throws -> [StorageItem] {
        try await intercept(.other)
        return try await base.children(of: container)
    }

    func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        try await intercept(.other)
        return try await base.createContainer(named: name, in: parent)
    }

    func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        try await intercept(.other)
        return try await base.createFile(named: name, in: parent, content: content, overwrite: overwrite)
    }

    func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await intercept(.other)
        return content(try await base.readFile(id, range: range))
    }

    func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        try await intercept(.other)
        return try await base.writeFile(id, content: content, expectedVersion: expectedVersion)
    }

    func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
        try await intercept(.other)
        return try await base.rename(id, to: newName)
    }

    func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws -> StorageItem {
        try await intercept(.move(id, to: newParent))
        return try await base.move(id, to: newParent, newName: newName, replacing: replacing)
    }

    func delete(_ id: ItemID) async throws {
        try await intercept(.other)
        try await base.delete(id)
    }
}

/// Makes every backend call hang while ``isHanging`` is on, ignoring cancellation (the worst case), until
/// ``resume()``.
final class HangSwitch: Sendable {
    private struct State {
        var hanging = false
        var parked: [CheckedContinuation<Void, Never>] = []
        var parkedCount = 0
    }

    private let state = Mutex(State())

    var isHanging: Bool {
        get { state.withLock { $0.hanging } }
        set { state.withLock { $0.hanging = newValue } }
    }

    /// How many calls were parked so far.
    var parkedCount: Int { state.withLock { $0.parkedCount } }

    /// The hook for ``InterceptingStorage``.
    func gate() async {
        await withCheckedContinuation { continuation in
            let park = state.withLock { state in
                guard state.hanging else { return false }
                state.parked.append(continuation)
                state.parkedCount += 1
                return true
            }
            if !park { continuation.resume() }
        }
    }

    /// Stops hanging and lets every parked call continue.
    func resume() {
        let parked = state.withLock { state in
            state.hanging = false
            defer { state.parked = [] }
            return state.parked
        }
        for continuation in parked { continuation.resume() }
    }
}
