public import Foundation

/// One stored version of a file's content, as a backend that keeps versions (``VersionedStorage``) lists it.
public struct FileVersion: Sendable, Hashable, Identifiable {
    /// The version, as ``FileMetadata/version`` named the content when it was current.
    public var id: String
    /// The content length in bytes.
    public var size: Int64
    /// When the version was saved.
    public var savedAt: Date
    /// How the version was saved, and by whom (``SaveContext``).
    public var save: SaveContext
    /// Whether the version is kept by name: retention never removes it.
    public var isKept: Bool
    /// Whether this is the file's current content.
    public var isCurrent: Bool
    /// The SHA-256 digest of the content (32 bytes), or `nil` when the backend cannot know it.
    public var sha256: Data?

    /// Creates a version description.
    public init(
        id: String, size: Int64, savedAt: Date, save: SaveContext, isKept: Bool, isCurrent: Bool, sha256: Data?
    ) {
        self.id = id
        self.size = size
        self.savedAt = savedAt
        self.save = save
        self.isKept = isKept
        self.isCurrent = isCurrent
        self.sha256 = sha256
    }
}

/// A version as JSON, the one shape WOPIKit prints and serves it in (`wopi-host versions --json`, the host pages'
/// `/versions/{fileID}?format=json`): `id`, `size`, `savedAt` (as the encoder's date strategy writes it), `savedBy`
/// (the user's ID, absent when unknown), `path` (the ``SavePath``), `autosave`, `exitSave`, `kept`, `current` and
/// `sha256` (base64, absent when unknown).
extension FileVersion: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, size, savedAt, savedBy, path, autosave, exitSave, kept, current, sha256
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(size, forKey: .size)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encodeIfPresent(save.userID, forKey: .savedBy)
        try container.encode(save.path.rawValue, forKey: .path)
        try container.encode(save.isAutosave, forKey: .autosave)
        try container.encode(save.isExitSave, forKey: .exitSave)
        try container.encode(isKept, forKey: .kept)
        try container.encode(isCurrent, forKey: .current)
        try container.encodeIfPresent(sha256?.base64EncodedString(), forKey: .sha256)
    }
}
