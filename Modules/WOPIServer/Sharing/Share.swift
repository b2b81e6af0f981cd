public import Foundation
public import WOPIStorage

/// One grant: a user may do `permission` with an item of someone else's.
///
/// A share of a container covers everything below it, now and later. The host asks the ``AccessPolicy`` on every
/// request, so a revoked share takes effect at once, even for access tokens minted before.
public struct Share: Sendable, Hashable, Codable {
    /// The shared file or container.
    public var itemID: ItemID
    /// The user the item is shared with.
    public var granteeID: String
    /// What the grantee may do: ``Permission/view`` or ``Permission/edit``.
    public var permission: Permission
    /// The user who shared the item.
    public var grantedBy: String
    /// When the share was made (or last changed).
    public var grantedAt: Date

    /// Creates a share.
    public init(itemID: ItemID, granteeID: String, permission: Permission, grantedBy: String, grantedAt: Date) {
        self.itemID = itemID
        self.granteeID = granteeID
        self.permission = permission
        self.grantedBy = grantedBy
        self.grantedAt = grantedAt
    }
}
