/// How much a user may do with an item's content: nothing, read it, or change it.
///
/// Ordered: `none < view < edit`. An access token carries one, so a view-only link stays view-only whoever
/// passes it on; a request gets the lesser of the token's permission and what the ``AccessPolicy`` grants now.
public enum Permission: Int, Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    /// No access: the item does not exist for this user (the host answers 404).
    case none
    /// Read the content and properties.
    case view
    /// Read and change the content (locks, PutFile, and what the abilities of ``ItemAccess`` allow).
    case edit

    public static func < (lhs: Permission, rhs: Permission) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `none`, `view` or `edit`.
    public var description: String {
        switch self {
        case .none: "none"
        case .view: "view"
        case .edit: "edit"
        }
    }
}
