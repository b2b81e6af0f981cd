/// What one user may do with one item: the ``Permission`` on its content, and the abilities the protocol flags
/// separately (`UserCanRename`, `UserCanDelete`, `UserCanCreateChildContainer`/`File`).
///
/// The abilities count only with ``Permission/edit``: ``effective`` clears them otherwise.
public struct ItemAccess: Sendable, Hashable {
    /// The permission on the item's content.
    public var permission: Permission
    /// Whether the user owns the item.
    public var isOwner: Bool
    /// Whether the user may rename the item (RenameFile, RenameContainer).
    public var canRename: Bool
    /// Whether the user may delete the item (DeleteFile, DeleteContainer).
    public var canDelete: Bool
    /// Whether the user may create items in this container, or next to this file (PutRelativeFile).
    public var canCreateChildren: Bool

    /// Creates an access; abilities default to what `permission` suggests for a non-owner.
    public init(
        permission: Permission, isOwner: Bool = false, canRename: Bool? = nil, canDelete: Bool? = nil,
        canCreateChildren: Bool? = nil
    ) {
        self.permission = permission
        self.isOwner = isOwner
        let editing = permission == .edit
        self.canRename = canRename ?? editing
        self.canDelete = canDelete ?? editing
        self.canCreateChildren = canCreateChildren ?? editing
    }

    /// No access at all.
    public static let none = ItemAccess(permission: .none)
    /// Read only.
    public static let view = ItemAccess(permission: .view)
    /// Change the content, rename, delete and create.
    public static let edit = ItemAccess(permission: .edit)
    /// The owner: everything.
    public static let owner = ItemAccess(permission: .edit, isOwner: true)

    /// This access limited to `permission` (a token's): abilities beyond it are dropped.
    public func limited(to permission: Permission) -> ItemAccess {
        var access = self
        access.permission = min(self.permission, permission)
        return access.effective
    }

    /// The abilities that really apply: none without ``Permission/edit``.
    public var effective: ItemAccess {
        guard permission < .edit else { return self }
        var access = self
        access.canRename = false
        access.canDelete = false
        access.canCreateChildren = false
        return access
    }

    /// Whether the content may be changed.
    public var canWrite: Bool { permission == .edit }
}
