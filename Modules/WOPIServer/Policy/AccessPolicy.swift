public import WOPIModels
public import WOPIStorage

/// Who may do what: the seam where a storage provider plugs in its own accounts, ACLs and sharing.
///
/// Open for third-party conformances. ``WOPIHost`` asks ``access(of:to:)`` on every request for the item the
/// token names (and for each child it lists), answers 404 for ``Permission/none``, refuses writes below
/// ``Permission/edit`` with 401 (the access token does not allow them), and lets ``describe(file:_:user:access:)``
/// and its siblings adjust the CheckFileInfo, CheckContainerInfo and CheckEcosystem of each user and item.
/// The host has already filled every property from `access`; a policy changes what it wants (branding, URLs,
/// `HidePrintOption`, …). ``sharedItems(with:)`` fills each user's "Shared with me" container, and
/// ``willChange(_:by:)`` sees, and may veto, every change before the host makes it.
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

    /// Adjusts the CheckFileInfo the host built for `user` and `file`.
    func describe(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) async throws

    /// Adjusts the CheckContainerInfo the host built for `user` and `container`.
    func describe(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws

    /// Adjusts the CheckEcosystem the host built for `user` (for example `SupportsContainers: false` for users who
    /// may not browse).
    func describe(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws

    /// The items of other users shared with `user`: the host lists them in a "Shared with me" container in the
    /// user's root, and hides that container while there are none.
    func sharedItems(with user: WOPIUser) async throws -> [StorageItem]

    /// Sees a change `user` is about to make, after the host checked the permission and the lock, before it changes
    /// anything. Throw ``ContentVeto`` to refuse it with a clear error.
    func willChange(_ change: ContentChange, by user: WOPIUser) async throws
}

extension AccessPolicy {
    /// Asks ``access(of:to:)`` for each item.
    public func access(of user: WOPIUser, to items: [StorageItem]) async throws -> [ItemAccess] {
        var result: [ItemAccess] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try await access(of: user, to: item)) }
        return result
    }

    /// Leaves CheckFileInfo as the host built it.
    public func describe(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess)
        async throws
    {}

    /// Leaves CheckContainerInfo as the host built it.
    public func describe(
        container: ContainerMetadata, _ info: inout CheckContainerInfo, user: WOPIUser, access: ItemAccess
    ) async throws {}

    /// Leaves CheckEcosystem as the host built it.
    public func describe(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) async throws {}

    /// Nothing is shared with anyone.
    public func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }

    /// Allows every change the permission allows.
    public func willChange(_ change: ContentChange, by user: WOPIUser) async throws {}
}
