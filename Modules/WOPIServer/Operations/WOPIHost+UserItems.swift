public import WOPIStorage

/// What a signed-in user does with items outside the WOPI protocol (the host pages, the command line), each through
/// the door (``authorize(_:on:by:)``, ``authorize(_:by:access:)``): a caller never reads ``storage`` or asks
/// ``policy`` itself.
extension WOPIHost {
    /// A container as one user sees it: what they may do with it, and the items in it they may see.
    public struct ContainerView: Sendable {
        /// One item the user sees in the container.
        public struct Entry: Sendable {
            /// The item.
            public var item: StorageItem
            /// What the user may do with it.
            public var access: ItemAccess
            /// Whether another user shares it with this one (it is listed in the user's root, in the
            /// "Shared with me" folder).
            public var isShared: Bool
        }

        /// The container.
        public var container: ContainerMetadata
        /// What the user may do with it.
        public var access: ItemAccess
        /// The ID of the user's root container.
        public var rootID: ItemID
        /// Whether it is the user's root.
        public var isRoot: Bool { container.id == rootID }
        /// The items the user may see in it, then, in the root, the items shared with the user.
        public var entries: [Entry]
    }

    /// `container` (the user's root when `nil`) as `user` sees it.
    ///
    /// - Throws: ``StorageError/Code/notFound`` when there is no such container or the user may not see it.
    public func containerView(_ container: ItemID?, for user: WOPIUser) async throws -> ContainerView {
        let root = try await storage.rootContainer(forUser: user.id)
        let (shown, access): (ContainerMetadata, ItemAccess)
        if let container, container != root.id {
            guard case (.container(let found), let seen) = try await item(container, visibleTo: user) else {
                throw StorageError.notFound(container)
            }
            (shown, access) = (found, seen)
        } else {
            (shown, access) = (root, try await authorize(.see, on: .container(root), by: user))
        }
        let children = try await storage.children(of: shown.id)
        var entries = zip(children, try await self.access(of: user, to: children))
            .filter { $0.1.allows(.see) }
            .map { ContainerView.Entry(item: $0.0, access: $0.1, isShared: false) }
        if shown.id == root.id {
            let shared = try await policy.sharedItems(with: user)
            entries += zip(shared, try await self.access(of: user, to: shared))
                .filter { $0.1.allows(.see) }
                .map { ContainerView.Entry(item: $0.0, access: $0.1, isShared: true) }
        }
        return ContainerView(container: shown, access: access, rootID: root.id, entries: entries)
    }

    /// The content of file `id`, for `user` to read (a download).
    ///
    /// - Throws: ``StorageError/Code/notFound`` when there is no such file or the user may not see it; `401` when
    ///   they may see it but not read it (a secure viewer).
    public func readFile(_ id: ItemID, for user: WOPIUser) async throws -> FileContent {
        guard case .file = try await item(id, readableBy: user).item else { throw StorageError.notFound(id) }
        return try await storage.readFile(id)
    }

    /// Creates file `name` in `container` for `user`, with `content`: the policy must let the user create there,
    /// and every ``ChangeGuard`` sees ``ContentChange/create(name:in:isContainer:)`` first. With `replacing`, a file
    /// of that name gets `content` as a new version instead, as a save (``ContentChange/putFile(_:_:)``: write
    /// access to it).
    ///
    /// - Throws: 404 when the user may not see the container, 401 when they may not create in it, a guard's
    ///   ``ContentVeto``, and what the storage throws (a name taken without `replacing`: `409`).
    public func createFile(
        named name: String, in container: ItemID, content: ByteStream = .empty, replacing: Bool = false,
        for user: WOPIUser
    ) async throws -> FileMetadata {
        if replacing, case .file(let existing)? = try await storage.child(named: name, in: container) {
            try await authorize(.putFile(existing, PutFileDetails(size: content.knownLength)), by: user)
        } else {
            let parent = try await storage.container(container)
            try await authorize(.create(name: name, in: parent, isContainer: false), by: user)
        }
        return try await saving(by: user, through: .create) {
            try await storage.createFile(named: name, in: container, content: content, overwrite: replacing)
        }
    }

    /// The folder at slash-separated `path` below `container`, creating each missing one for `user` (`mkdir -p`)
    /// through the door: ``ContentChange/create(name:in:isContainer:)`` for each.
    ///
    /// - Throws: 404 when the user may not see a folder on the path, 401 when they may not create in it, a guard's
    ///   ``ContentVeto``; ``StorageError/Code/notFound`` when a segment names a file.
    @discardableResult
    public func createFolders(atPath path: String, under container: ItemID, for user: WOPIUser) async throws
        -> ContainerMetadata
    {
        let folder = try await storage.createContainers(atPath: path, under: container) { name, parent in
            try await authorize(.create(name: name, in: parent, isContainer: true), by: user)
        }
        try await authorize(.see, on: .container(folder), by: user)
        return folder
    }

    /// Creates an empty document with extension `ext` (`docx`, …) in `container` for `user`, named
    /// ``WOPIHostConfiguration/defaultNewFileBaseName`` (`New document.docx`, then `New document 2.docx`, …: the
    /// first name not taken), as ``createFile(named:in:content:for:)`` does.
    public func createDocument(extension ext: String, in container: ItemID, for user: WOPIUser) async throws
        -> FileMetadata
    {
        try await createFile(named: try await freeDocumentName(extension: ext, in: container), in: container, for: user)
    }

    /// `New document.EXT`, or `New document 2.EXT`, …: the first name not taken in `container`.
    func freeDocumentName(extension ext: String, in container: ItemID) async throws -> String {
        let baseName = configuration.defaultNewFileBaseName
        var name = "\(baseName).\(ext)"
        var number = 2
        while try await storage.child(named: name, in: container) != nil {
            name = "\(baseName) \(number).\(ext)"
            number += 1
        }
        return name
    }
}
