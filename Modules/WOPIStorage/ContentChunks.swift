public import WOPIChunking

/// One chunk of a file's content, as CSPP Plus's `Zip` or `FullFile` scheme cuts it.
public struct ContentChunk: Sendable, Hashable {
    /// The chunk's SpookyHash V2 identifier.
    public var id: ChunkID
    /// Where the chunk starts in the file's bytes.
    public var offset: Int64
    /// How many bytes the chunk holds.
    public var length: Int64

    /// A chunk of `length` bytes at `offset`, identified by `id`.
    public init(id: ChunkID, offset: Int64, length: Int64) {
        self.id = id
        self.offset = offset
        self.length = length
    }
}

/// The chunks of one version of a file's content, in order, with no gap: they cover the whole file.
public struct ContentChunkList: Sendable, Hashable {
    /// The ``FileMetadata/version`` these chunks describe.
    public var version: String
    /// `true` when the content was cut by the `Zip` scheme, `false` for `FullFile`.
    public var isZip: Bool
    /// The chunks, in file order.
    public var chunks: [ContentChunk]

    /// The chunk list of `version`.
    public init(version: String, isZip: Bool, chunks: [ContentChunk]) {
        self.version = version
        self.isZip = isZip
        self.chunks = chunks
    }
}

/// A backend that keeps each file's content as chunks keyed by ``ChunkID`` (cut by the `Zip`/`FullFile` scheme
/// when the content is written) and can list them without reading the content.
///
/// The host's incremental file transfer asks for this list; for a backend that does not conform, it works the
/// list out by reading the content once.
public protocol ChunkedContentStorage: StorageBackend {
    /// The chunks of the current content of file `id`, in order.
    ///
    /// - Throws: ``StorageError`` as ``StorageBackend/readFile(_:range:)`` does.
    func contentChunks(of id: ItemID) async throws -> ContentChunkList
}
