public import WOPIModels
public import WOPIStorage

/// A change a user is about to make, shown to ``AccessPolicy/willChange(_:by:)`` before the host makes it.
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
