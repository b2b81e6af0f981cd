import ChunkedVersionStore
public import WOPIStorage

extension PostgresStorage: VersionedStorage {
    /// The versions of file `id`, the current one first, then newest first; they share chunks, so a version that
    /// differs from its predecessor by one paragraph costs about one chunk.
    public func versions(of id: ItemID) async throws -> [FileVersion] {
        try await versions.versions(of: id)
    }

    public func readVersion(_ version: String, of id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await versions.readVersion(version, of: try await file(id), range: range)
    }

    public func deleteVersion(_ version: String, of id: ItemID) async throws {
        try await versions.deleteVersion(version, of: id)
    }

    @discardableResult
    public func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) async throws -> FileVersion {
        try await versions.keepVersion(version, of: id, kept)
    }
}

extension PostgresStorage: StorageUsage {
    /// The bytes of the distinct chunks the kept versions of `user`'s files hold.
    public func storedBytes(ownedBy user: String) async throws -> Int64 {
        try await versions.storedBytes(ownedBy: user)
    }
}
