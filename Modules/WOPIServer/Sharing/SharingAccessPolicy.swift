public import WOPIStorage

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
        try await access(of: user, to: [item])[0]
    }

    /// Reads the user's shares once, and walks each container above the items once, however many items share it.
    public func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess] {
        var result: [ItemAccess] = []
        result.reserveCapacity(items.count)
        var grants: Grants?
        for item in items {
            if item.ownerID == user.id {
                result.append(try await OwnerAccessPolicy().access(of: user, to: item))
                continue
            }
            if grants == nil { grants = Grants(try await shares.shares(withGrantee: user.id)) }
            result.append(try await grants!.access(to: item, storage: storage))
        }
        return result
    }

    /// What `user` may do with `item` given the shares on its path, read with the item (``AuthorizationRead``): the
    /// same answer as `access(of:to:)` for one item, which reads the shares and walks the containers itself.
    public func access(of user: WOPIUser, to item: StorageItem, sharesOnPath: [ItemID: Permission]) async throws
        -> ItemAccess?
    {
        if item.ownerID == user.id { return try await OwnerAccessPolicy().access(of: user, to: item) }
        return Grants.access(
            to: item, direct: sharesOnPath[item.id] ?? .none, widest: sharesOnPath.values.max() ?? .none)
    }

    /// The shares of one grantee, and what they give on the containers walked so far.
    private struct Grants {
        var byItem: [ItemID: Permission] = [:]
        /// The widest permission the shares give on a container through it or the containers above it.
        var inherited: [ItemID: Permission] = [:]

        init(_ shares: [Share]) {
            for share in shares { byItem[share.itemID] = max(byItem[share.itemID] ?? .none, share.permission) }
        }

        mutating func access(to item: StorageItem, storage: any StorageBackend) async throws -> ItemAccess {
            guard !byItem.isEmpty else { return .none }
            let direct = byItem[item.id] ?? .none
            var permission = direct
            if permission < .edit, let parent = item.parentID {
                permission = max(permission, try await through(parent, storage: storage))
            }
            return Self.access(to: item, direct: direct, widest: permission)
        }

        /// What a grantee may do with `item` when its own shares give it `direct` and the widest share on it or a
        /// container above it gives `widest`.
        static func access(to item: StorageItem, direct: Permission, widest permission: Permission) -> ItemAccess {
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

        /// The widest permission given on `container` or above it.
        mutating func through(_ container: ItemID, storage: any StorageBackend) async throws -> Permission {
            if let known = inherited[container] { return known }
            var permission = byItem[container] ?? .none
            if permission < .edit, let parent = try await storage.container(container).parentID {
                permission = max(permission, try await through(parent, storage: storage))
            }
            inherited[container] = permission
            return permission
        }
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
