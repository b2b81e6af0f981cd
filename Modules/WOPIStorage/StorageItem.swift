public import Foundation

/// What a backend knows about a stored file.
public struct FileMetadata: Sendable, Hashable {
    /// The file's stable ID.
    public var id: ItemID
    /// The file name with its extension, no path.
    public var name: String
    /// The container that holds the file.
    public var parentID: ItemID
    /// The user who owns the file (the owner of the root it lives under).
    public var ownerID: String
    /// The content length in bytes.
    public var size: Int64
    /// An opaque version string that changes on every content change and never repeats for this file.
    public var version: String
    /// When the content last changed.
    public var lastModified: Date
    /// The SHA-256 digest of the content (32 bytes), or `nil` when the backend cannot know it.
    public var sha256: Data?

    /// Creates file metadata.
    public init(
        id: ItemID, name: String, parentID: ItemID, ownerID: String, size: Int64, version: String,
        lastModified: Date, sha256: Data?
    ) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.ownerID = ownerID
        self.size = size
        self.version = version
        self.lastModified = lastModified
        self.sha256 = sha256
    }
}

/// What a backend knows about a stored container (folder).
public struct ContainerMetadata: Sendable, Hashable {
    /// The container's stable ID.
    public var id: ItemID
    /// The container's name; a user's root container is named after the user.
    public var name: String
    /// The parent container, or `nil` for a user's root.
    public var parentID: ItemID?
    /// The user who owns the container.
    public var ownerID: String
    /// When the container or its list of children last changed.
    public var lastModified: Date

    /// Creates container metadata.
    public init(id: ItemID, name: String, parentID: ItemID?, ownerID: String, lastModified: Date) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.ownerID = ownerID
        self.lastModified = lastModified
    }

    /// Whether this is a user's root container.
    public var isRoot: Bool { parentID == nil }
}

/// A file or a container.
public enum StorageItem: Sendable, Hashable {
    case file(FileMetadata)
    case container(ContainerMetadata)

    /// The item's ID.
    public var id: ItemID {
        switch self {
        case .file(let file): file.id
        case .container(let container): container.id
        }
    }

    /// The item's name.
    public var name: String {
        switch self {
        case .file(let file): file.name
        case .container(let container): container.name
        }
    }

    /// The item's parent, `nil` for a root container.
    public var parentID: ItemID? {
        switch self {
        case .file(let file): file.parentID
        case .container(let container): container.parentID
        }
    }

    /// The item's owner.
    public var ownerID: String {
        switch self {
        case .file(let file): file.ownerID
        case .container(let container): container.ownerID
        }
    }
}

/// A file's metadata together with a stream of its content.
public struct FileContent: Sendable {
    /// The metadata of the version being read.
    public var metadata: FileMetadata
    /// The content; single pass.
    public var body: ByteStream

    /// Creates a file content value.
    public init(metadata: FileMetadata, body: ByteStream) {
        self.metadata = metadata
        self.body = body
    }
}

extension Sequence<StorageItem> {
    /// These items sorted by name (`String`'s `<`), items of equal names in their order here: what a listing shows.
    ///
    /// Each name is read once. Sorting the items themselves by `name` copies both items out of their enum for every
    /// comparison, which was 13.5% of a file-system host's CPU in a listing of 1,000 files (Docs/benchmarks.md).
    package func sortedByName() -> [StorageItem] {
        let items = Array(self)
        let names = items.map(\.name)
        return items.indices.sorted { names[$0] < names[$1] }.map { items[$0] }
    }
}
