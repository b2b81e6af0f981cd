public import WOPIStorage

/// The built-in policy: a user has every right on the items they own and none on anyone else's.
///
/// A user's root container cannot be renamed or deleted.
public struct OwnerAccessPolicy: AccessPolicy {
    /// Creates the policy.
    public init() {}

    /// ``ItemAccess/owner`` for the owner (without rename and delete on a root), ``ItemAccess/none`` otherwise.
    public func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        guard item.ownerID == user.id else { return .none }
        if case .container(let container) = item, container.isRoot {
            return ItemAccess(permission: .edit, isOwner: true, canRename: false, canDelete: false)
        }
        return .owner
    }
}
