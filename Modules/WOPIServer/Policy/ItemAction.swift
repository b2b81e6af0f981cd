/// What a request does with an item, as far as permission goes: the list every entry point's check is written in
/// (``WOPIOperation/requirement``, ``ContentChange/action``, ``WOPIHost/authorize(_:on:by:)``).
public enum ItemAction: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// See it: its metadata, its listing, its locks.
    case see
    /// Read its content (GetFile, a download): everyone who sees it but a secure viewer outside the editor.
    case read
    /// Change its content, or lock it for a change (a commenter or reviewer only through the editor).
    case write
    /// Rename it.
    case rename
    /// Delete it.
    case delete
    /// Create items in it (a container), or beside it (a file: PutRelativeFile).
    case createChildren
    /// Hand out links to it (only its owner, with edit rights).
    case share

    /// What the action is, as an error message names it.
    public var description: String {
        switch self {
        case .see: "seeing the item"
        case .read: "reading the content (a secure viewer sees it only in the editor)"
        case .write: "changing the item"
        case .rename: "renaming the item"
        case .delete: "deleting the item"
        case .createChildren: "creating items here"
        case .share: "sharing the item (only its owner shares)"
        }
    }
}

extension ItemAccess {
    /// Whether this access allows `action`.
    public func allows(_ action: ItemAction) -> Bool {
        switch action {
        case .see: permission > .none
        case .read: canRead
        case .write: canWrite
        case .rename: effective.canRename
        case .delete: effective.canDelete
        case .createChildren: effective.canCreateChildren
        case .share: isOwner && canWrite
        }
    }
}
