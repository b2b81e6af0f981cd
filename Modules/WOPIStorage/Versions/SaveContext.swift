/// Who is saving a file's content, and how: what a backend that keeps versions (``VersionedStorage``) records with
/// each version it stores.
///
/// The host sets it around every save it makes (``current``): the user and the WOPI operation or
/// command behind it, and the editor's autosave and exit-save flags (Collabora Online's and ONLYOFFICE's
/// `X-COOL-WOPI-IsAutosave`/`-IsExitSave`, or their `X-LOOL-WOPI-` names). It is a task-local value, so it reaches the
/// backend through every wrapper backend between them; a save made outside one is recorded with
/// ``SavePath/unknown`` and no user.
public struct SaveContext: Sendable, Hashable {
    /// The ID of the user whose save it is, when one is known.
    public var userID: String?
    /// The operation or command that saves.
    public var path: SavePath
    /// Whether the editor saved on its own timer rather than at a user's request.
    public var isAutosave: Bool
    /// Whether the editor saved because its last user closed the document.
    public var isExitSave: Bool

    /// Creates a save context.
    public init(userID: String?, path: SavePath, isAutosave: Bool = false, isExitSave: Bool = false) {
        self.userID = userID
        self.path = path
        self.isAutosave = isAutosave
        self.isExitSave = isExitSave
    }

    /// The context of the save the current task makes, if its caller set one with
    /// `SaveContext.$current.withValue(_:operation:)`.
    @TaskLocal public static var current: SaveContext?

    /// The context a backend records: ``current``, or an unknown save by nobody.
    public static var recorded: SaveContext { current ?? SaveContext(userID: nil, path: .unknown) }
}

/// The way a save reached the storage, recorded with each version (``FileVersion/path``).
public struct SavePath: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The name stored with the version, such as `PutFile`.
    public var rawValue: String

    /// A path named `rawValue`; a backend keeps names it does not know as they are.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// WOPI PutFile.
    public static let putFile = SavePath(rawValue: "PutFile")
    /// WOPI PutRelativeFile (a new file, or one it replaces).
    public static let putRelativeFile = SavePath(rawValue: "PutRelativeFile")
    /// CSPP Plus PutChunkedFile.
    public static let putChunkedFile = SavePath(rawValue: "PutChunkedFile")
    /// A resumable upload session's final commit.
    public static let uploadSession = SavePath(rawValue: "UploadSession")
    /// A new file made by the host: CreateChildFile, a template, a host page's new document or upload.
    public static let create = SavePath(rawValue: "Create")
    /// A write through the FUSE mount.
    public static let mount = SavePath(rawValue: "Mount")
    /// A command-line tool (`wopi-host import`).
    public static let commandLine = SavePath(rawValue: "CommandLine")
    /// The restore of an older version (``VersionedStorage/restoreVersion(_:of:expectedVersion:)``).
    public static let restore = SavePath(rawValue: "Restore")
    /// A save made without a ``SaveContext``.
    public static let unknown = SavePath(rawValue: "Unknown")

    public var description: String { rawValue }
}
