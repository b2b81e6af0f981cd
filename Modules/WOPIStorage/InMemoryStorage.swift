public import Foundation
import NIOCore

/// A ``StorageBackend`` held in process memory: the reference implementation, and a backend for unit tests.
///
/// It keeps whole files in memory, so it is not for production data; it passes the conformance kit like any
/// other backend.
public actor InMemoryStorage: StorageBackend {
    private struct Node {
        var item: StorageItem
        var content: ByteBuffer = ByteBuffer()
    }

    private var nodes: [ItemID: Node] = [:]
    private var roots: [String: ItemID] = [:]
    private var versionCounter = 0
    private let now: @Sendable () -> Date

    /// Creates an empty store.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    public func rootContainer(forUser user: String) -> ContainerMetadata {
        if let id = roots[user], case .container(let root)? = nodes[id]?.item { return root }
        let root = ContainerMetadata(id: .random(), name: user, parentID: nil, ownerID: user, lastModified: now())
        nodes[root.id] = Node(item: .container(root))
        roots[user] = root.id
        return root
    }

    public func item(_ id: ItemID) throws -> StorageItem {
        guard let node = nodes[id] else { throw StorageError.notFound(id) }
        return node.item
    }

    public func children(of container: ItemID) throws -> [StorageItem] {
        _ = try containerMetadata(container)
        return nodes.values.map(\.item).filter { $0.parentID == container }
    }

    public func createContainer(named name: String, in parent: ItemID) throws -> ContainerMetadata {
        let parentContainer = try containerMetadata(parent)
        try StorageName.validate(name)
        try ensureFree(name, in: parent)
        let container = ContainerMetadata(
            id: .random(), name: name, parentID: parent, ownerID: parentContainer.ownerID, lastModified: now())
        nodes[container.id] = Node(item: .container(container))
        return container
    }

    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        _ = try containerMetadata(parent)
        try StorageName.validate(name)
        let buffer = try await collect(content)
        // Re-check after the suspension: the tree may have changed while the body streamed in.
        let parentContainer = try containerMetadata(parent)
        if let existing = siblings(of: parent).first(where: { $0.name == name }) {
            guard overwrite, case .file(let file) = existing else {
                throw StorageError(
                    .nameConflict, "An item named \"\(name)\" already exists in this container.",
                    conflictingItem: existing.id)
            }
            return store(buffer, in: file)
        }
        let file = FileMetadata(
            id: .random(), name: name, parentID: parent, ownerID: parentContainer.ownerID, size: 0,
            version: "", lastModified: now(), sha256: nil)
        return store(buffer, in: file)
    }

    public func readFile(_ id: ItemID, range: Range<Int64>?) throws -> FileContent {
        guard let node = nodes[id], case .file(let file) = node.item else {
            _ = try item(id)
            throw StorageError(.notAFile, "Item \(id) is a container, not a file.")
        }
        var content = node.content
        if let range {
            let lower = Int(min(max(range.lowerBound, 0), file.size))
            let upper = Int(min(max(range.upperBound, Int64(lower)), file.size))
            content = content.getSlice(at: content.readerIndex + lower, length: upper - lower) ?? ByteBuffer()
        }
        return FileContent(metadata: file, body: ByteStream(buffer: content))
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        _ = try fileMetadata(id)
        let buffer = try await collect(content)
        let file = try fileMetadata(id)
        if let expectedVersion, expectedVersion != file.version {
            throw StorageError(
                .versionMismatch, "File \(id) changed meanwhile (now at version \(file.version)).",
                currentVersion: file.version)
        }
        return store(buffer, in: file)
    }

    public func rename(_ id: ItemID, to newName: String) throws -> StorageItem {
        let current = try item(id)
        guard let parent = current.parentID else {
            throw StorageError(.unsupported, "A root container cannot be renamed.")
        }
        return try move(id, to: parent, newName: newName, replacing: false)
    }

    public func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) throws -> StorageItem {
        var moving = try item(id)
        guard moving.parentID != nil else { throw StorageError(.unsupported, "A root container cannot be moved.") }
        let target = try containerMetadata(newParent)
        let name = try StorageName.validate(newName ?? moving.name)
        // A container may not move into itself or below itself.
        var cursor: ItemID? = newParent
        while let step = cursor {
            if step == id { throw StorageError(.invalidName, "A container cannot be moved into itself.") }
            cursor = nodes[step]?.item.parentID
        }
        if let existing = siblings(of: newParent).first(where: { $0.name == name }), existing.id != id {
            guard replacing, case .file = existing, case .file = moving else {
                throw StorageError(
                    .nameConflict, "An item named \"\(name)\" already exists in the target container.",
                    conflictingItem: existing.id)
            }
            nodes[existing.id] = nil
        }
        switch moving {
        case .file(var file):
            file.name = name
            file.parentID = newParent
            file.ownerID = target.ownerID
            moving = .file(file)
        case .container(var container):
            container.name = name
            container.parentID = newParent
            container.ownerID = target.ownerID
            moving = .container(container)
            reassignOwner(below: id, to: target.ownerID)
        }
        nodes[id]?.item = moving
        return moving
    }

    public func delete(_ id: ItemID) throws {
        let current = try item(id)
        if case .container(let container) = current {
            guard container.parentID != nil else {
                throw StorageError(.unsupported, "A root container cannot be deleted.")
            }
            guard siblings(of: id).isEmpty else {
                throw StorageError(.notEmpty, "Container \(id) is not empty; delete its children first.")
            }
        }
        nodes[id] = nil
    }

    // MARK: - Helpers

    private func containerMetadata(_ id: ItemID) throws -> ContainerMetadata {
        guard case .container(let container) = try item(id) else {
            throw StorageError(.notAContainer, "Item \(id) is a file, not a container.")
        }
        return container
    }

    private func fileMetadata(_ id: ItemID) throws -> FileMetadata {
        guard case .file(let file) = try item(id) else {
            throw StorageError(.notAFile, "Item \(id) is a container, not a file.")
        }
        return file
    }

    private func siblings(of parent: ItemID) -> [StorageItem] {
        nodes.values.map(\.item).filter { $0.parentID == parent }
    }

    /// An item moved into another user's tree belongs to that user, descendants included.
    private func reassignOwner(below container: ItemID, to owner: String) {
        for child in siblings(of: container) {
            switch child {
            case .file(var file):
                file.ownerID = owner
                nodes[file.id]?.item = .file(file)
            case .container(var folder):
                folder.ownerID = owner
                nodes[folder.id]?.item = .container(folder)
                reassignOwner(below: folder.id, to: owner)
            }
        }
    }

    private func ensureFree(_ name: String, in parent: ItemID) throws {
        if let existing = siblings(of: parent).first(where: { $0.name == name }) {
            throw StorageError(
                .nameConflict, "An item named \"\(name)\" already exists in this container.",
                conflictingItem: existing.id)
        }
    }

    private func collect(_ content: ByteStream) async throws -> ByteBuffer {
        var buffer = ByteBuffer()
        for try await var chunk in content { buffer.writeBuffer(&chunk) }
        return buffer
    }

    private func store(_ buffer: ByteBuffer, in file: FileMetadata) -> FileMetadata {
        var digest = ContentDigest()
        digest.update(buffer)
        versionCounter += 1
        var updated = file
        updated.size = Int64(buffer.readableBytes)
        updated.version = "v\(versionCounter)"
        updated.lastModified = now()
        updated.sha256 = digest.finalize()
        nodes[file.id] = Node(item: .file(updated), content: buffer)
        return updated
    }
}
