public import Foundation
import NIOCore

/// A ``StorageBackend`` held in process memory: the reference implementation, and a backend for unit tests.
///
/// It keeps whole files in memory, so it is not for production data; it passes the conformance kit like any
/// other backend. It keeps versions (``VersionedStorage``) under `retention`.
public actor InMemoryStorage: StorageBackend {
    struct Node {
        var item: StorageItem
        var content: ByteBuffer = ByteBuffer()
        /// The file's versions, newest first, the current one first; empty for a container.
        var versions: [StoredVersion] = []
    }

    /// A version and its bytes.
    struct StoredVersion {
        var version: FileVersion
        var content: ByteBuffer
    }

    var nodes: [ItemID: Node] = [:]
    private var roots: [String: ItemID] = [:]
    private var versionCounter = 0
    let now: @Sendable () -> Date
    /// Which earlier versions stay.
    public let retention: VersionRetention

    /// Creates an empty store that keeps versions under `retention`.
    public init(retention: VersionRetention = .standard, now: @escaping @Sendable () -> Date = { Date() }) {
        self.retention = retention
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

    func fileMetadata(_ id: ItemID) throws -> FileMetadata {
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

    /// Makes `buffer` the new current version of `file`, recorded with the task's ``SaveContext``, and applies
    /// ``retention``.
    private func store(_ buffer: ByteBuffer, in file: FileMetadata) -> FileMetadata {
        var digest = ContentDigest()
        digest.update(buffer)
        versionCounter += 1
        var updated = file
        updated.size = Int64(buffer.readableBytes)
        updated.version = "v\(versionCounter)"
        updated.lastModified = now()
        updated.sha256 = digest.finalize()
        let save = SaveContext.recorded
        var versions = nodes[file.id]?.versions ?? []
        if let previous = versions.first?.version,
            retention.coalesces(
                save, previous: previous.save, previousSavedAt: previous.savedAt, previousIsKept: previous.isKept,
                now: updated.lastModified)
        {
            versions.removeFirst()
        }
        for index in versions.indices { versions[index].version.isCurrent = false }
        let version = FileVersion(
            id: updated.version, size: updated.size, savedAt: updated.lastModified, save: save, isKept: false,
            isCurrent: true, sha256: updated.sha256)
        versions.insert(StoredVersion(version: version, content: buffer), at: 0)
        nodes[file.id] = Node(item: .file(updated), content: buffer, versions: versions)
        applyRetention(to: file.id)
        return updated
    }

    /// Drops the versions of file `id` that ``retention`` lets go now.
    func applyRetention(to id: ItemID) {
        guard let versions = nodes[id]?.versions else { return }
        let expired = retention.expired(versions.map(\.version), now: now())
        if !expired.isEmpty { nodes[id]?.versions.removeAll { expired.contains($0.version.id) } }
    }
}
