import Foundation
import NIOCore

extension InMemoryStorage: VersionedStorage {
    public func versions(of id: ItemID) throws -> [FileVersion] {
        _ = try fileMetadata(id)
        return nodes[id]?.versions.map(\.version) ?? []
    }

    public func readVersion(_ version: String, of id: ItemID, range: Range<Int64>?) throws -> FileContent {
        var file = try fileMetadata(id)
        let stored = try storedVersion(version, of: id)
        file.size = stored.version.size
        file.version = stored.version.id
        file.lastModified = stored.version.savedAt
        file.sha256 = stored.version.sha256
        var content = stored.content
        if let range {
            let lower = Int(min(max(range.lowerBound, 0), file.size))
            let upper = Int(min(max(range.upperBound, Int64(lower)), file.size))
            content = content.getSlice(at: content.readerIndex + lower, length: upper - lower) ?? ByteBuffer()
        }
        return FileContent(metadata: file, body: ByteStream(buffer: content))
    }

    public func deleteVersion(_ version: String, of id: ItemID) throws {
        let stored = try storedVersion(version, of: id)
        guard !stored.version.isCurrent else { throw StorageError.currentVersionKept(version, of: id) }
        nodes[id]?.versions.removeAll { $0.version.id == version }
    }

    @discardableResult
    public func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) throws -> FileVersion {
        _ = try fileMetadata(id)
        guard var versions = nodes[id]?.versions, let index = versions.firstIndex(where: { $0.version.id == version })
        else { throw StorageError.versionNotFound(version, of: id) }
        versions[index].version.isKept = kept
        nodes[id]?.versions = versions
        return versions[index].version
    }

    private func storedVersion(_ version: String, of id: ItemID) throws -> StoredVersion {
        _ = try fileMetadata(id)
        guard let stored = nodes[id]?.versions.first(where: { $0.version.id == version }) else {
            throw StorageError.versionNotFound(version, of: id)
        }
        return stored
    }
}

extension InMemoryStorage: GarbageCollectingStorage {
    /// Drops the versions ``retention`` lets go at the store's clock; memory holds no leases or unfinished writes.
    @discardableResult
    public func collectGarbage() -> GarbageReport {
        var retired = 0
        for id in nodes.keys {
            let before = nodes[id]?.versions.count ?? 0
            applyRetention(to: id)
            retired += before - (nodes[id]?.versions.count ?? 0)
        }
        return GarbageReport(abandonedWrites: 0, retiredVersions: retired, expiredLeases: 0)
    }
}

extension InMemoryStorage: StorageUsage {
    /// Each version of the user's files counted whole: memory stores each one as a buffer of its own.
    public func storedBytes(ownedBy user: String) -> Int64 {
        nodes.values.reduce(0) { total, node in
            guard case .file(let file) = node.item, file.ownerID == user else { return total }
            return total + node.versions.reduce(0) { $0 + $1.version.size }
        }
    }
}
