extension StorageBackend {
    /// The item at a slash-separated path of names below `container` (`"Reports/Q4.xlsx"`; a leading `/` and
    /// empty segments are ignored; `""` is the container itself).
    ///
    /// - Throws: ``StorageError/Code/notFound`` when a segment names nothing, ``StorageError/Code/invalidName``
    ///   for `.` or `..` segments (paths never climb).
    public func item(atPath path: String, under container: ItemID) async throws -> StorageItem {
        var current = try await item(container)
        for segment in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            try StorageName.validate(segment)
            guard case .container(let folder) = current,
                let next = try await child(named: segment, in: folder.id)
            else {
                throw StorageError(.notFound, "Nothing is at \"\(path)\" (no \"\(segment)\").")
            }
            current = next
        }
        return current
    }

    /// The container at a slash-separated path below `container`, creating every missing one (`mkdir -p`).
    ///
    /// Two callers racing to create the same folder both succeed: a name taken meanwhile is looked up again.
    /// - Throws: ``StorageError/Code/notFound`` when a segment names a file, ``StorageError/Code/invalidName`` for a
    ///   segment the backend refuses (`.`, `..`, names breaking its rules).
    @discardableResult
    public func createContainers(atPath path: String, under container: ItemID) async throws -> ContainerMetadata {
        try await createContainers(atPath: path, under: container, beforeCreating: { _, _ in })
    }

    /// The container at a slash-separated path below `container`, creating every missing one (`mkdir -p`), with
    /// `beforeCreating` asked first for each folder it creates (its name and the folder it goes in): what it throws
    /// stops the walk, and nothing more is created.
    ///
    /// - Throws: what `beforeCreating` throws, and what ``createContainers(atPath:under:)`` throws.
    @discardableResult
    public func createContainers(
        atPath path: String, under container: ItemID,
        beforeCreating: (_ name: String, _ parent: ContainerMetadata) async throws -> Void
    ) async throws -> ContainerMetadata {
        guard case .container(var current) = try await item(container) else {
            throw StorageError(.notFound, "\(container) is a file, not a folder.")
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            try StorageName.validate(segment)
            switch try await child(named: segment, in: current.id) {
            case .container(let existing)?:
                current = existing
            case .file?:
                throw StorageError(.notFound, "\"\(segment)\" in \"\(path)\" is a file, not a folder.")
            case nil:
                try await beforeCreating(segment, current)
                do {
                    current = try await createContainer(named: segment, in: current.id)
                } catch let error as StorageError where error.code == .nameConflict {
                    guard case .container(let existing)? = try await child(named: segment, in: current.id) else {
                        throw error
                    }
                    current = existing
                }
            }
        }
        return current
    }

    /// The slash-separated path of an item below its user's root, for example `Reports/Q4.xlsx`.
    public func path(of id: ItemID) async throws -> String {
        let names = try await ancestors(of: id).dropFirst().map(\.name) + [try await item(id).name]
        return try await item(id).parentID == nil ? "" : names.joined(separator: "/")
    }
}
