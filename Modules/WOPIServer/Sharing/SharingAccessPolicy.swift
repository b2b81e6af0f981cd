import WOPIStorage

/// The built-in policy: the owner may do everything with their items, and other users what an explicit
/// ``Share`` grants them.
///
/// A share of a container covers everything below it; when several shares cover an item, the widest permission
/// wins. A grantee with ``Permission/edit`` may write, rename, delete and create below a shared container, but
/// neither rename nor delete the shared item itself (nor put files beside a shared file): that stays the owner's
/// decision. A user's root container is
/// never renamed or deleted. The items shared with a user appear in their "Shared with me" container.
///
/// ```swift
/// let shares = SQLiteShareStore(database: database)
/// let host = WOPIHost(storage: storage, locks: locks, users: users, tokens: signer,
///                     policy: SharingAccessPolicy(storage: storage, shares: shares))
/// ```
public struct SharingAccessPolicy: AccessPolicy {
    /// Where the items live (to walk from an item up to a shared container).
    public let storage: any StorageBackend
    /// Where the shares live.
    public let shares: any ShareStore

    /// Creates the policy.
    public init(storage: any StorageBackend, shares: any ShareStore) {
        self.storage = storage
        self.shares = shares
    }

    /// The owner's rights for the owner; otherwise the widest share on the item or a container above it.
    public func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        if item.ownerID == user.id { return try await OwnerAccessPolicy().access(of: user, to: item) }
        let granted = try await shares.shares(withGrantee: user.id)
        guard !granted.isEmpty else { return .none }
        var byItem: [ItemID: Permission] = [:]
        for share in granted { byItem[share.itemID] = max(byItem[share.itemID] ?? .none, share.permission) }
        let direct = byItem[item.id] ?? .none
        var permission = direct
        var parent = item.parentID
        while let id = parent, permission < .edit {
            permission = max(permission, byItem[id] ?? .none)
            parent = try await storage.container(id).parentID
        }
        guard permission > .none else { return .none }
        // The shared item itself keeps its name and place; what lies below a shared container is the grantee's
        // to change as the permission allows.
        let isShareRoot = direct > .none && permission == direct
        let editing = permission == .edit
        var isFile = false
        if case .file = item { isFile = true }
        return ItemAccess(
            permission: permission, canRename: editing && !isShareRoot, canDelete: editing && !isShareRoot,
            canCreateChildren: editing && !(isShareRoot && isFile))
    }

    /// The items of the user's shares that still exist, in the order they were shared.
    public func sharedItems(with user: WOPIUser) async throws -> [StorageItem] {
        var items: [StorageItem] = []
        for share in try await shares.shares(withGrantee: user.id) where share.permission > .none {
            do {
                let item = try await storage.item(share.itemID)
                if item.ownerID != user.id, !items.contains(where: { $0.id == item.id }) { items.append(item) }
            } catch let error as StorageError where error.code == .notFound {
                continue  // the owner deleted the item; the share no longer names anything
            }
        }
        return items
    }
}
