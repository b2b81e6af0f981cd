/// What one user may do with one item: the ``Permission`` on its content, and the abilities the protocol flags
/// separately (`UserCanRename`, `UserCanDelete`, `UserCanCreateChildContainer`/`File`).
///
/// The abilities count only with ``Permission/edit``: ``effective`` clears them otherwise. A commenter, a reviewer
/// and a secure viewer are kept to their role by the editor, not by the host, so what they may do with the content
/// depends on who asks: the editor itself (``isVerifiedEditor``) or anything else they hold a token for.
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
    /// Whether the request comes from the WOPI client itself, its proof-key signature verified
    /// (``WOPIHostConfiguration/proofKeySource``): the host sets it, never the policy. Only then may a
    /// ``Permission/comment`` or ``Permission/review`` save (the editor saves the comments and tracked changes
    /// into the file) and a ``Permission/secureView`` read the content (the editor shows it watermarked).
    public var isVerifiedEditor = false

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

    /// Whether the content may be changed: with ``Permission/edit``, or as a commenter or reviewer through the
    /// verified editor.
    public var canWrite: Bool { permission == .edit || (isVerifiedEditor && permission >= .comment) }

    /// Whether the content may be read: from ``Permission/view`` up, or as a secure viewer through the verified
    /// editor.
    public var canRead: Bool { permission >= .view || (isVerifiedEditor && permission == .secureView) }

    /// This access as the verified editor has it (``isVerifiedEditor``).
    public var throughVerifiedEditor: ItemAccess {
        var access = self
        access.isVerifiedEditor = true
        return access
    }
}
