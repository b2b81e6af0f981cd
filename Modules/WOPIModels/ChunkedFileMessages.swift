// The MessageJSON payloads of CSPP Plus incremental file transfer (Microsoft's "get-chunked-file",
// "put-chunked-file" and "get-chunks" pages; field names as Microsoft's WOPI validator sends them). Every array
// decodes as empty when absent.

/// `Zip` or `FullFile`: how a content stream is cut into chunks.
public enum ChunkingScheme: String, Codable, Sendable, Hashable, CaseIterable {
    /// One chunk for the whole stream (any content that is not a zip).
    case fullFile = "FullFile"
    /// A zip cut at its entries: local header, data, and the central directory to the end.
    case zip = "Zip"
}

/// Which chunks a GetChunkedFile content filter asks for.
public enum ChunksToReturn: String, Codable, Sendable, Hashable, CaseIterable {
    /// Every chunk the client does not know.
    case all = "All"
    /// No chunk: the signatures only.
    case none = "None"
    /// Only the last chunk of a zip (its central directory); none for a `FullFile` stream.
    case lastZipChunk = "LastZipChunk"
}

/// What happens to a content property when the file's content changes.
public enum ContentPropertyRetention: String, Codable, Sendable, Hashable, CaseIterable {
    /// The property is dropped by any change of the content.
    case deleteOnContentChange = "DeleteOnContentChange"
    /// The property survives content changes.
    case keepOnContentChange = "KeepOnContentChange"
}

/// A named value a client stores with a file's content.
public struct ContentProperty: Codable, Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// The property's value.
    public var value: String
    /// Whether it survives a change of the content.
    public var retention: ContentPropertyRetention

    /// Creates a property.
    public init(name: String, value: String, retention: ContentPropertyRetention) {
        self.name = name
        self.value = value
        self.retention = retention
    }

    enum CodingKeys: String, CodingKey {
        case name = "Name", value = "Value", retention = "Retention"
        /// The name Microsoft's "chunk-streams" page gives the retention; the validator sends `Retention`.
        case documentedRetention = "ContentPropertyRetention"
    }

    /// Reads a property; its retention is `Retention` (what the validator sends and WOPIKit writes) or
    /// `ContentPropertyRetention` (the documented name), `DeleteOnContentChange` when neither is sent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decode(String.self, forKey: .value)
        retention =
            try container.decodeIfPresent(ContentPropertyRetention.self, forKey: .retention)
            ?? container.decodeIfPresent(ContentPropertyRetention.self, forKey: .documentedRetention)
            ?? .deleteOnContentChange
    }

    /// Writes the property with its retention as `Retention`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
        try container.encode(retention, forKey: .retention)
    }
}

/// One chunk of a stream's signature: its ID (base64 of the 16-byte SpookyHash) and length.
public struct ChunkSignature: Codable, Sendable, Hashable {
    /// The chunk ID, base64.
    public var chunkID: String
    /// The chunk's length in bytes.
    public var length: UInt64

    /// Creates a chunk signature.
    public init(chunkID: String, length: UInt64) {
        self.chunkID = chunkID
        self.length = length
    }

    enum CodingKeys: String, CodingKey {
        case chunkID = "ChunkId", length = "Length"
    }
}

/// A content stream's signature: the ordered chunks that make it up.
public struct StreamSignature: Codable, Sendable, Hashable {
    /// The ID of a file's main content stream: the bytes GetFile serves. Any other ID names an alternate stream.
    public static let mainContent = "MainContent"

    /// `MainContent`, or the name of an alternate stream.
    public var streamID: String
    /// How the stream is cut.
    public var chunkingScheme: ChunkingScheme
    /// The chunks in stream order.
    public var chunkSignatures: [ChunkSignature]

    /// Creates a stream signature.
    public init(streamID: String, chunkingScheme: ChunkingScheme, chunkSignatures: [ChunkSignature]) {
        self.streamID = streamID
        self.chunkingScheme = chunkingScheme
        self.chunkSignatures = chunkSignatures
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        streamID = try container.decode(String.self, forKey: .streamID)
        chunkingScheme = try container.decode(ChunkingScheme.self, forKey: .chunkingScheme)
        chunkSignatures = try container.decodeIfPresent([ChunkSignature].self, forKey: .chunkSignatures) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case streamID = "StreamId", chunkingScheme = "ChunkingScheme", chunkSignatures = "ChunkSignatures"
    }
}

/// The MessageJSON of a GetChunkedFile request.
public struct GetChunkedFileRequestMessage: Codable, Sendable, Hashable {
    /// One stream the client asks for.
    public struct ContentFilter: Codable, Sendable, Hashable {
        /// The stream asked for.
        public var streamID: String
        /// The scheme the client prefers (the host answers the scheme of its content).
        public var chunkingScheme: ChunkingScheme
        /// Which chunks to send.
        public var chunksToReturn: ChunksToReturn
        /// The IDs (base64) of chunks the client has already: never sent.
        public var alreadyKnownChunks: [String]

        /// Creates a filter.
        public init(
            streamID: String, chunkingScheme: ChunkingScheme, chunksToReturn: ChunksToReturn,
            alreadyKnownChunks: [String] = []
        ) {
            self.streamID = streamID
            self.chunkingScheme = chunkingScheme
            self.chunksToReturn = chunksToReturn
            self.alreadyKnownChunks = alreadyKnownChunks
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            streamID = try container.decode(String.self, forKey: .streamID)
            chunkingScheme = try container.decodeIfPresent(ChunkingScheme.self, forKey: .chunkingScheme) ?? .zip
            chunksToReturn = try container.decodeIfPresent(ChunksToReturn.self, forKey: .chunksToReturn) ?? .all
            alreadyKnownChunks = try container.decodeIfPresent([String].self, forKey: .alreadyKnownChunks) ?? []
        }

        enum CodingKeys: String, CodingKey {
            case streamID = "StreamId", chunkingScheme = "ChunkingScheme", chunksToReturn = "ChunksToReturn"
            case alreadyKnownChunks = "AlreadyKnownChunks"
        }
    }

    /// The names of the content properties to answer.
    public var contentPropertiesToReturn: [String]
    /// The streams asked for.
    public var contentFilters: [ContentFilter]

    /// Creates a request message.
    public init(contentPropertiesToReturn: [String] = [], contentFilters: [ContentFilter]) {
        self.contentPropertiesToReturn = contentPropertiesToReturn
        self.contentFilters = contentFilters
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contentPropertiesToReturn =
            try container.decodeIfPresent([String].self, forKey: .contentPropertiesToReturn) ?? []
        contentFilters = try container.decodeIfPresent([ContentFilter].self, forKey: .contentFilters) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case contentPropertiesToReturn = "ContentPropertiesToReturn", contentFilters = "ContentFilters"
    }
}

/// The MessageJSON of a GetChunkedFile response; Chunk frames follow it.
public struct GetChunkedFileResponseMessage: Codable, Sendable, Hashable {
    /// The content properties asked for that the file has.
    public var contentProperties: [ContentProperty]
    /// One signature per stream asked for (an absent stream: `Zip` with no chunk).
    public var signatures: [StreamSignature]

    /// Creates a response message.
    public init(contentProperties: [ContentProperty], signatures: [StreamSignature]) {
        self.contentProperties = contentProperties
        self.signatures = signatures
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contentProperties = try container.decodeIfPresent([ContentProperty].self, forKey: .contentProperties) ?? []
        signatures = try container.decodeIfPresent([StreamSignature].self, forKey: .signatures) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case contentProperties = "ContentProperties", signatures = "Signatures"
    }
}

/// The MessageJSON of a PutChunkedFile request; Chunk frames with the chunks the host lacks follow it.
public struct PutChunkedFileRequestMessage: Codable, Sendable, Hashable {
    /// Properties to store with the new content.
    public var contentProperties: [ContentProperty]
    /// The new streams; a stream not listed stays as it is.
    public var signatures: [StreamSignature]
    /// The upload session to commit (empty for none): the Chunk frames uploaded into it join the ones in the
    /// request's body, and the host removes the session once the put succeeds.
    public var uploadSessionTokenToCommit: String

    /// Creates a request message.
    public init(
        contentProperties: [ContentProperty] = [], signatures: [StreamSignature],
        uploadSessionTokenToCommit: String = ""
    ) {
        self.contentProperties = contentProperties
        self.signatures = signatures
        self.uploadSessionTokenToCommit = uploadSessionTokenToCommit
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contentProperties = try container.decodeIfPresent([ContentProperty].self, forKey: .contentProperties) ?? []
        signatures = try container.decodeIfPresent([StreamSignature].self, forKey: .signatures) ?? []
        uploadSessionTokenToCommit =
            try container.decodeIfPresent(String.self, forKey: .uploadSessionTokenToCommit) ?? ""
    }

    enum CodingKeys: String, CodingKey {
        case contentProperties = "ContentProperties", signatures = "Signatures"
        case uploadSessionTokenToCommit = "UploadSessionTokenToCommit"
    }
}

/// The MessageJSON of a GetChunks request: chunk ranges to return.
public struct GetChunksRequestMessage: Codable, Sendable, Hashable {
    /// A part of a chunk: `length` -1 for "to the end of the chunk".
    public struct ChunkRange: Codable, Sendable, Hashable {
        /// The chunk ID, base64.
        public var chunkID: String
        /// Where the part starts in the chunk.
        public var offset: Int64
        /// How many bytes, or -1 for all to the chunk's end.
        public var length: Int64

        /// Creates a range.
        public init(chunkID: String, offset: Int64 = 0, length: Int64 = -1) {
            self.chunkID = chunkID
            self.offset = offset
            self.length = length
        }

        enum CodingKeys: String, CodingKey {
            case chunkID = "ChunkId", offset = "Offset", length = "Length"
        }
    }

    /// The ranges asked for in one stream.
    public struct ContentFilter: Codable, Sendable, Hashable {
        /// The stream.
        public var streamID: String
        /// The scheme the client knows the stream by.
        public var chunkingScheme: ChunkingScheme
        /// The ranges.
        public var chunkRangesToReturn: [ChunkRange]

        /// Creates a filter.
        public init(streamID: String, chunkingScheme: ChunkingScheme, chunkRangesToReturn: [ChunkRange]) {
            self.streamID = streamID
            self.chunkingScheme = chunkingScheme
            self.chunkRangesToReturn = chunkRangesToReturn
        }

        enum CodingKeys: String, CodingKey {
            case streamID = "StreamId", chunkingScheme = "ChunkingScheme", chunkRangesToReturn = "ChunkRangesToReturn"
        }
    }

    /// The streams.
    public var contentFilters: [ContentFilter]

    /// Creates a request message.
    public init(contentFilters: [ContentFilter]) {
        self.contentFilters = contentFilters
    }

    enum CodingKeys: String, CodingKey {
        case contentFilters = "ContentFilters"
    }
}

/// The MessageJSON of a GetChunks response: the ranges actually returned (a chunk no longer in the file is left
/// out), in the order of the ChunkRange frames that follow.
public struct GetChunksResponseMessage: Codable, Sendable, Hashable {
    /// The ranges returned, per stream.
    public var contentFilters: [GetChunksRequestMessage.ContentFilter]

    /// Creates a response message.
    public init(contentFilters: [GetChunksRequestMessage.ContentFilter]) {
        self.contentFilters = contentFilters
    }

    enum CodingKeys: String, CodingKey {
        case contentFilters = "ContentFilters"
    }
}

/// The answer to CreateUploadSession (CSPP Plus resumable file transfer, Microsoft's "create-upload-session"
/// page): the token that names the new upload session in UpdateUploadSession's `X-WOPI-UploadSessionToken` and in
/// PutChunkedFile's ``PutChunkedFileRequestMessage/uploadSessionTokenToCommit``.
public struct CreateUploadSessionResponse: Codable, Sendable, Hashable {
    /// The upload session's token: unique, and valid for the file and user it was created for until the session
    /// is committed or expires (30 minutes after it was created or last updated).
    public var uploadSessionToken: String

    /// Creates an answer.
    public init(uploadSessionToken: String) {
        self.uploadSessionToken = uploadSessionToken
    }

    enum CodingKeys: String, CodingKey {
        case uploadSessionToken = "UploadSessionToken"
    }
}
