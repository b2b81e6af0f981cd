import HTTPTypes
import WOPIHTTPEdge
public import WOPIStorage

extension WOPIHost {
    /// `user`'s view of ``storage``, each call through the door (``UserStorage``): what a local mount or any other
    /// entry point that speaks `StorageBackend` acts through for one user.
    public func storage(for user: WOPIUser) -> UserStorage { UserStorage(host: self, user: user) }
}

/// One user's view of a host's storage, each call through the host's door: a read needs the policy's
/// ``ItemAction/see``, and each change is the ``ContentChange`` that the policy and every ``ChangeGuard`` see first,
/// as for a WOPI request (a write is ``ContentChange/putFile(_:_:)``, a new item
/// ``ContentChange/create(name:in:isContainer:)``; a move leaves one folder and enters another, so it is
/// ``ContentChange/delete(_:)`` of the item and a create in the new folder).
///
/// A refusal is a ``StorageError``, as a backend's failures are: ``StorageError/Code/notFound`` for an item the user
/// may not see (as for one that does not exist), ``StorageError/Code/permissionDenied`` for an action their access
/// does not allow or a guard's veto, and ``StorageError/Code/tooLarge`` for a veto answered 413 (a quota). The
/// user's root lists only their own items (what others share with them is not in this view).
///
/// ```swift
/// let mount = FUSEMount(backend: host.storage(for: user), lockStore: stores.locks, root: root.id, ...)
/// ```
public struct UserStorage: StorageBackend {
    /// The host whose door decides.
    public let host: WOPIHost
    /// Whose view this is.
    public let user: WOPIUser

    /// The view of `user` through `host`'s door.
    public init(host: WOPIHost, user: WOPIUser) {
        self.host = host
        self.user = user
    }

    public func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        guard user == self.user.id else {
            throw StorageError(.notFound, "This view holds \(self.user.id)'s files only, not \(user)'s.")
        }
        return try await host.storage.rootContainer(forUser: user)
    }

    public func item(_ id: ItemID) async throws -> StorageItem {
        try await throughTheDoor { try await host.item(id, visibleTo: user).item }
    }

    public func children(of container: ItemID) async throws -> [StorageItem] {
        try await throughTheDoor {
            try await host.containerView(container, for: user).entries.filter { !$0.isShared }.map(\.item)
        }
    }

    public func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        try await throughTheDoor {
            let container = try await host.storage.container(parent)
            try await host.authorize(.create(name: name, in: container, isContainer: true), by: user)
            return try await host.storage.createContainer(named: name, in: parent)
        }
    }

    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool)
        async throws -> FileMetadata
    {
        try await throughTheDoor {
            try await host.createFile(named: name, in: parent, content: content, replacing: overwrite, for: user)
        }
    }

    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await throughTheDoor {
            _ = try await host.item(id, readableBy: user)
            return try await host.storage.readFile(id, range: range)
        }
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        try await throughTheDoor {
            let file = try await host.storage.file(id)
            try await host.authorize(.putFile(file, PutFileDetails(size: content.knownLength)), by: user)
            return try await host.saving(by: user, through: .mount) {
                try await host.storage.writeFile(id, content: content, expectedVersion: expectedVersion)
            }
        }
    }

    public func rename(_ id: ItemID, to newName: String) async throws -> StorageItem {
        try await throughTheDoor {
            try await host.authorize(.rename(try await host.storage.item(id), to: newName), by: user)
            return try await host.storage.rename(id, to: newName)
        }
    }

    public func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws
        -> StorageItem
    {
        try await throughTheDoor {
            let item = try await host.storage.item(id)
            let target = try await host.storage.container(newParent)
            try await host.authorize(.delete(item), by: user)
            let isContainer = if case .container = item { true } else { false }
            try await host.authorize(
                .create(name: newName ?? item.name, in: target, isContainer: isContainer), by: user)
            return try await host.storage.move(id, to: newParent, newName: newName, replacing: replacing)
        }
    }

    public func delete(_ id: ItemID) async throws {
        try await throughTheDoor {
            try await host.authorize(.delete(try await host.storage.item(id)), by: user)
            try await host.storage.delete(id)
        }
    }

    /// Runs `body`, the door's refusals turned into the ``StorageError``s a backend's caller understands.
    private func throughTheDoor<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as any HTTPResponseError where !(refusal is StorageError) {
            let status = refusal.response.status
            let message = "\(refusal)"
            throw StorageError(status == .contentTooLarge ? .tooLarge : .permissionDenied, message)
        }
    }
}
