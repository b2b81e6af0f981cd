public import WOPIModels
public import WOPIStorage

/// A change a user is about to make: what ``WOPIHost/authorize(_:by:access:)`` checks against the user's access and
/// shows each ``ChangeGuard`` before the host makes it.
public enum ContentChange: Sendable {
    /// PutFile: new content for `file`, with what the WOPI client said about the save.
    case putFile(FileMetadata, PutFileDetails)
    /// PutRelativeFile: a new file named `name` beside `source` (`replacing` an existing file of that name, if any).
    case putRelativeFile(source: FileMetadata, name: String, replacing: Bool)
    /// RenameFile or RenameContainer.
    case rename(StorageItem, to: String)
    /// DeleteFile or DeleteContainer.
    case delete(StorageItem)
    /// CreateChildFile or CreateChildContainer in `container`.
    case create(name: String, in: ContainerMetadata, isContainer: Bool)
    /// AddActivities: comments and mentions on `file`, already parsed.
    case addActivities(FileMetadata, [FileActivity])

    /// The item whose access decides the change: the file, the item renamed or deleted, the container created in.
    public var subject: StorageItem {
        switch self {
        case .putFile(let file, _), .addActivities(let file, _): .file(file)
        case .putRelativeFile(let source, _, _): .file(source)
        case .rename(let item, _), .delete(let item): item
        case .create(_, let container, _): .container(container)
        }
    }

    /// What the change needs of the user's access to ``subject``. Comments and mentions need only sight: a viewer
    /// may comment.
    public var action: ItemAction {
        switch self {
        case .putFile: .write
        case .putRelativeFile, .create: .createChildren
        case .rename: .rename
        case .delete: .delete
        case .addActivities: .see
        }
    }
}

/// What a WOPI client says about a PutFile, from its request headers.
///
/// Office for the web sends `X-WOPI-Editors`; Collabora Online sends `X-COOL-WOPI-IsModifiedByUser`,
/// `-IsAutosave` and `-IsExitSave` (or their older `X-LOOL-` names); ONLYOFFICE sends `X-WOPI-Editors`.
public struct PutFileDetails: Sendable, Hashable {
    /// The user IDs of everyone whose edits the content holds (`X-WOPI-Editors`), in the order sent.
    public var editors: [String]
    /// Whether the client saved on its own timer rather than at a user's request, when it says.
    public var isAutosave: Bool?
    /// Whether the client saved because the last editor closed the document, when it says.
    public var isExitSave: Bool?
    /// Whether a user changed the document since the last save, when the client says.
    public var isModifiedByUser: Bool?
    /// The body's length, when the client declared it.
    public var size: Int64?

    /// Creates details.
    public init(
        editors: [String] = [], isAutosave: Bool? = nil, isExitSave: Bool? = nil, isModifiedByUser: Bool? = nil,
        size: Int64? = nil
    ) {
        self.editors = editors
        self.isAutosave = isAutosave
        self.isExitSave = isExitSave
        self.isModifiedByUser = isModifiedByUser
        self.size = size
    }
}
