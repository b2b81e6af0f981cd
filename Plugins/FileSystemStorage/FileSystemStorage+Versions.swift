public import WOPIStorage

extension FileSystemStorage: VersionedStorage {
    public func versions(of id: ItemID) async throws -> [FileVersion] {
        try await blocking("Listing the versions of file \(id)") { [tree] in
            try tree.storedVersions(of: tree.locateFile(id)).map(\.version)
        }
    }

    public func readVersion(_ version: String, of id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await blocking("Opening version \(version) of file \(id)") { [tree, pool] in
            let file = try tree.locateFile(id)
            let stored = try tree.storedVersion(version, of: file)
            var metadata = try tree.describeFile(file)
            metadata.size = stored.version.size
            metadata.version = stored.version.id
            metadata.lastModified = stored.version.savedAt
            metadata.sha256 = stored.version.sha256
            let lower = min(max(range?.lowerBound ?? 0, 0), metadata.size)
            let upper = min(max(range?.upperBound ?? metadata.size, lower), metadata.size)
            // The open descriptor holds the version's content though retention or a user removes it meanwhile.
            let reader = FileReader(stored.entry, range: lower..<upper, pool: pool)
            return FileContent(metadata: metadata, body: reader.stream)
        }
    }

    public func deleteVersion(_ version: String, of id: ItemID) async throws {
        try await blocking("Deleting version \(version) of file \(id)") { [tree] in
            try tree.deleteVersion(version, of: id)
        }
    }

    @discardableResult
    public func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) async throws -> FileVersion {
        try await blocking("Keeping version \(version) of file \(id)") { [tree] in
            try tree.keepVersion(version, of: id, kept)
        }
    }
}

extension FileSystemStorage: GarbageCollectingStorage {
    /// Applies ``Configuration/versionRetention`` to every file's earlier versions on the configured clock,
    /// removes the versions of files deleted by other programs, and the temporary files of writes that never
    /// finished. Walks the whole tree.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        try await blocking("Collecting garbage") { [tree] in try tree.collectGarbage() }
    }
}

extension FileSystemStorage: StorageUsage {
    /// The bytes of `user`'s files and of their earlier versions, each a whole file; walks the user's tree.
    public func storedBytes(ownedBy user: String) async throws -> Int64 {
        try await blocking("Counting the bytes of \(user)'s files") { [tree] in try tree.storedBytes(ownedBy: user) }
    }
}
