public import WOPIStorage

/// Who may see and do what: the seam where a storage provider plugs in its own accounts, ACLs and sharing.
///
/// Open for third-party conformances. A policy answers one question, for every request: what may this user do
/// with this item. The host asks it through one door (``WOPIHost/authorize(_:on:by:)`` and
/// ``WOPIHost/authorize(_:by:access:)``), answers 404 for ``Permission/none`` and refuses what
/// ``ItemAccess`` does not allow with 401. What a host adds to CheckFileInfo is an ``InfoDecorator``'s job, and a
/// veto on changes (a quota, a file-type rule) a ``ChangeGuard``'s: each is registered beside the policy, not
/// wrapped around it.
///
/// The default is ``SharingAccessPolicy``: the owner, plus explicit ``Share``s.
///
/// ```swift
/// struct ACLPolicy: AccessPolicy {
///     let acl: MyACLService
///     func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
///         switch try await acl.role(user.id, item.id.rawValue) {
///         case .owner: .owner
///         case .editor: .edit
///         case .reader: .view
///         case nil: .none
///         }
///     }
/// }
/// let host = WOPIHost(storage: storage, locks: locks, users: users, tokens: signer, policy: ACLPolicy(acl: acl))
/// ```
public protocol AccessPolicy: Sendable {
    /// What `user` may do with `item` (a file or a container). Called on every request: keep it fast.
    func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess

    /// What `user` may do with each of `items` (a listing, a path), in order. The default asks
    /// ``access(of:to:)`` for each; a policy that reads its grants from a store answers all at once.
    func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess]

    /// What `user` may do with `item`, given the widest permission the user's shares in the host's ``ShareStore``
    /// give on the item and on each container above it, read with the item by the host's ``AuthorizationReader``
    /// (``AuthorizationRead/sharesOnPath``), so the host needs no read of its own. `nil` (the default) when this
    /// policy decides from something else; the host then asks ``access(of:to:)``.
    func access(of user: WOPIUser, to item: StorageItem, sharesOnPath: [ItemID: Permission]) async throws
        -> ItemAccess?

    /// The items of other users shared with `user`: the host lists them in a "Shared with me" container in the
    /// user's root, and hides that container while there are none.
    func sharedItems(with user: WOPIUser) async throws -> [StorageItem]
}

extension AccessPolicy {
    /// Asks ``access(of:to:)`` for each item.
    public func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess] {
        var result: [ItemAccess] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try await access(of: user, to: item)) }
        return result
    }

    /// `nil`: this policy does not decide from the shares alone.
    public func access(of user: WOPIUser, to item: StorageItem, sharesOnPath: [ItemID: Permission]) async throws
        -> ItemAccess?
    { nil }

    /// Nothing is shared with anyone.
    public func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }
}
