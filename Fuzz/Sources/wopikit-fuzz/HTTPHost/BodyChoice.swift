import WOPIModels

/// A request's body.
enum BodyChoice: Choice {
    /// What the operation sends: new content for PutFile, a frame stream for the chunked transfers (``FramePlan``
    /// `natural(for:)`), chunk frames for UpdateUploadSession, an activity for AddActivities; else nothing.
    case natural
    case empty
    case raw([UInt8])
    /// A well-formed (or deliberately broken) CSPP Plus frame stream.
    case frames(FramePlan)
    /// One of ``templates``, then `suffix`.
    case template(Int, suffix: [UInt8])
    /// A seed file's content (``FuzzHostFixture/seedContents``) with `patch` written over it at `offset`.
    case content(Int, offset: UInt8, patch: [UInt8])
    /// A body of one of ``largeSizes``, to reach the host's limits.
    case large(Int)

    /// Bodies of the JSON and text operations.
    static let templates = [
        #"{"Activities":[{"Id":"a1","Type":"comment","Data":{"ContentId":"c1","ContentAction":"Created"},"People":[{"Name":"Bob","Id":"bob","Mentioned":true}]}]}"#,
        #"{"Activities":[{"Id":"a2","Type":"mention"},{"Id":"a3","Type":"unknown"}]}"#,
        #"{"ContentPropertiesToReturn":["p"],"ContentFilters":[{"StreamId":"MainContent","ChunkingScheme":"Zip","ChunksToReturn":"All"}]}"#,
        #"{"Signatures":[{"StreamId":"MainContent","ChunkingScheme":"FullFile","ChunkSignatures":[]}]}"#,
        "Ana's user info", "{}", "[]", "a=b&access_token=x",
    ]

    static let largeSizes: [Int] = [
        Int(FuzzHost.maximumFileSize) + 1, Int(FuzzHost.maximumFileSize), 70_000, 1 << 20, 16 * 1024 * 1024 + 1,
    ]

    /// The first byte modulo 16 picks the kind: a large body costs a hundred small ones, so it is 1 in 16.
    init(from reader: inout ChoiceReader) {
        switch reader.byte() % 16 {
        case 1: self = .empty
        case 2, 3: self = .raw(reader.bytes(upTo: 1 << 16))
        case 4, 5, 6: self = .frames(FramePlan(from: &reader))
        case 7, 8: self = .template(reader.index(below: Self.templates.count), suffix: reader.bytes(upTo: 4096))
        case 9, 10:
            self = .content(
                reader.index(below: FuzzHostFixture.seedContents.count), offset: reader.byte(),
                patch: reader.bytes(upTo: 4096))
        case 11: self = .large(reader.index(below: Self.largeSizes.count))
        default: self = .natural
        }
    }

    func write(to writer: inout ChoiceWriter) {
        switch self {
        case .natural: writer.byte(0)
        case .empty: writer.byte(1)
        case .raw(let bytes):
            writer.byte(2)
            writer.bytes(bytes)
        case .frames(let plan):
            writer.byte(4)
            plan.write(to: &writer)
        case .template(let index, let suffix):
            writer.byte(7)
            writer.byte(UInt8(index))
            writer.bytes(suffix)
        case .content(let index, let offset, let patch):
            writer.byte(9)
            writer.byte(UInt8(index))
            writer.byte(offset)
            writer.bytes(patch)
        case .large(let index):
            writer.byte(11)
            writer.byte(UInt8(index))
        }
    }
}

/// A CSPP Plus frame stream: a MessageJSON, Chunk frames, an EndFrame (Microsoft's "encode-send-data" page).
struct FramePlan: Choice {
    var message: MessageChoice
    var chunks: [ChunkChoice]
    var ending: Ending

    static let maximumChunks = 4

    enum Ending: CaseChoice {
        /// An EndFrame.
        case endFrame
        /// None (UpdateUploadSession's pieces have none).
        case none
        /// The stream cut in the middle of its last frame.
        case truncated
        /// An EndFrame, then bytes after it.
        case trailing
    }

    init(message: MessageChoice, chunks: [ChunkChoice], ending: Ending) {
        self.message = message
        self.chunks = chunks
        self.ending = ending
    }

    init(from reader: inout ChoiceReader) {
        message = MessageChoice(from: &reader)
        chunks = (0..<reader.index(below: Self.maximumChunks + 1)).map { _ in ChunkChoice(from: &reader) }
        ending = Ending(from: &reader)
    }

    func write(to writer: inout ChoiceWriter) {
        message.write(to: &writer)
        writer.byte(UInt8(chunks.count))
        for chunk in chunks { chunk.write(to: &writer) }
        ending.write(to: &writer)
    }

    /// The frame stream a client sends with `operation`.
    static func natural(for operation: Operation?) -> FramePlan {
        let newContent = ChunkChoice(.bytes(Array("New content from a chunked save.\n".utf8)))
        switch operation {
        case .putChunkedFile:
            return FramePlan(
                message: .planned(MessagePlan(streams: [StreamPlan(references: [ChunkReference(.body, 0)])])),
                chunks: [newContent], ending: .endFrame)
        case .updateUploadSession:
            return FramePlan(message: .none, chunks: [newContent], ending: .none)
        case .getChunks:
            let reference = ChunkReference(.seed, 0)
            return FramePlan(
                message: .planned(MessagePlan(streams: [StreamPlan(references: [reference])])), chunks: [],
                ending: .endFrame)
        default:
            return FramePlan(
                message: .planned(MessagePlan(streams: [StreamPlan(scheme: .zip)])), chunks: [], ending: .endFrame)
        }
    }
}

/// The MessageJSON frame of a stream.
enum MessageChoice: Choice {
    /// The message of the operation (PutChunkedFile's signatures, GetChunkedFile's filters, GetChunks's ranges)
    /// made from a plan.
    case planned(MessagePlan)
    /// No MessageJSON frame.
    case none
    /// These bytes as its payload.
    case raw([UInt8])

    init(from reader: inout ChoiceReader) {
        switch reader.byte() % 3 {
        case 0: self = .planned(MessagePlan(from: &reader))
        case 1: self = .none
        default: self = .raw(reader.bytes(upTo: 1 << 16))
        }
    }

    func write(to writer: inout ChoiceWriter) {
        switch self {
        case .planned(let plan):
            writer.byte(0)
            plan.write(to: &writer)
        case .none: writer.byte(1)
        case .raw(let bytes):
            writer.byte(2)
            writer.bytes(bytes)
        }
    }
}

/// What a planned MessageJSON says, whatever the operation: its streams, whether it commits the script's upload
/// session, a content property.
struct MessagePlan: Choice {
    var streams: [StreamPlan]
    var commitsUploadSession = false
    /// A content property (``propertyNames``), `nil` for none.
    var property: Int?

    static let propertyNames = ["Recent", "Thumbnail", "", String(repeating: "p", count: 5000)]

    init(streams: [StreamPlan], commitsUploadSession: Bool = false, property: Int? = nil) {
        self.streams = streams
        self.commitsUploadSession = commitsUploadSession
        self.property = property
    }

    init(from reader: inout ChoiceReader) {
        let bits = reader.byte()
        streams = (0..<(1 + Int(bits & 1))).map { _ in StreamPlan(from: &reader) }
        commitsUploadSession = bits & 2 != 0
        let property = Int(bits >> 2) % (Self.propertyNames.count + 1)
        self.property = property == 0 ? nil : property - 1
    }

    func write(to writer: inout ChoiceWriter) {
        var bits = UInt8(streams.count - 1)
        if commitsUploadSession { bits |= 2 }
        bits |= UInt8(property.map { $0 + 1 } ?? 0) << 2
        writer.byte(bits)
        for stream in streams { stream.write(to: &writer) }
    }
}

/// One stream of a message: PutChunkedFile's signature, GetChunkedFile's filter, GetChunks's ranges.
struct StreamPlan: Choice {
    var stream: StreamName = .mainContent
    var scheme: ChunkingScheme = .fullFile
    var chunksToReturn: ChunksToReturn = .all
    /// The chunks it names: signed, already known, or asked for.
    var references: [ChunkReference] = []

    static let maximumReferences = 5

    enum StreamName: String, CaseChoice {
        case mainContent = "MainContent", alternate = "Thumbnail", empty = "", other = "mainContent"
    }

    init(
        stream: StreamName = .mainContent, scheme: ChunkingScheme = .fullFile, chunksToReturn: ChunksToReturn = .all,
        references: [ChunkReference] = []
    ) {
        self.stream = stream
        self.scheme = scheme
        self.chunksToReturn = chunksToReturn
        self.references = references
    }

    init(from reader: inout ChoiceReader) {
        stream = StreamName(from: &reader)
        let bits = reader.byte()
        scheme = ChunkingScheme.allCases[Int(bits & 1)]
        chunksToReturn = ChunksToReturn.allCases[Int(bits >> 1) % ChunksToReturn.allCases.count]
        references = (0..<reader.index(below: Self.maximumReferences + 1)).map { _ in ChunkReference(from: &reader) }
    }

    func write(to writer: inout ChoiceWriter) {
        stream.write(to: &writer)
        let scheme = UInt8(ChunkingScheme.allCases.firstIndex(of: scheme)!)
        writer.byte(scheme | UInt8(ChunksToReturn.allCases.firstIndex(of: chunksToReturn)!) << 1)
        writer.byte(UInt8(references.count))
        for reference in references { reference.write(to: &writer) }
    }
}

/// A chunk a message names: one of this body's chunks, one the host was seeded with, or one an earlier request of
/// the script sent; with an offset and length (GetChunks) or a length other than its own (a signature that lies).
struct ChunkReference: Choice {
    var pool: Pool
    var index: Int
    /// GetChunks's offset, or a signature's length, from ``numbers``; 0 is the natural value.
    var offset = 0
    var length = 0

    enum Pool: Int, CaseIterable, Sendable { case body, seed, script }

    /// Natural first (the offset 0, the chunk's own length, or -1: to the chunk's end), then hostile numbers.
    static let numbers: [Int64?] = [
        nil, 0, 1, -1, 5, 100, Int64.max, Int64.min, Int64.max - 1, 4 * 1024 * 1024, -2, 1 << 32, 1 << 31, 13, 14, 12,
    ]

    init(_ pool: Pool, _ index: Int, offset: Int = 0, length: Int = 0) {
        self.pool = pool
        self.index = index
        self.offset = offset
        self.length = length
    }

    init(from reader: inout ChoiceReader) {
        let place = reader.byte()
        pool = Pool.allCases[Int(place & 3) % Pool.allCases.count]
        index = Int(place >> 2)
        let numbers = reader.byte()
        offset = Int(numbers & 15)
        length = Int(numbers >> 4)
    }

    func write(to writer: inout ChoiceWriter) {
        writer.byte(UInt8(pool.rawValue) | UInt8(index) << 2)
        writer.byte(UInt8(offset) | UInt8(length) << 4)
    }
}

/// A Chunk frame of a stream.
struct ChunkChoice: Choice {
    var source: Source
    /// An ID that is not the hash of the bytes.
    var wrongID = false

    enum Source: Equatable, Sendable {
        case bytes([UInt8])
        /// A chunk of ``ChunkReference/Pool/seed`` or ``ChunkReference/Pool/script``.
        case reference(ChunkReference.Pool, Int)
        /// One of ``largeSizes``.
        case large(Int)
    }

    /// Large chunks: one byte over the host's file limit, or a size the spool handles in several writes (a plan
    /// has at most one: later ones are empty).
    static let largeSizes = [Int(FuzzHost.maximumFileSize) + 1, 1 << 20, 70_000]

    init(_ source: Source, wrongID: Bool = false) {
        self.source = source
        self.wrongID = wrongID
    }

    init(from reader: inout ChoiceReader) {
        let kind = reader.byte()
        wrongID = kind & 4 != 0
        switch kind & 3 {
        case 0, 3: source = .bytes(reader.bytes(upTo: 1 << 16))
        case 1:
            source = .reference(
                reader.byte() & 1 == 0 ? .seed : .script, reader.index(below: 64))
        default: source = .large(reader.index(below: Self.largeSizes.count))
        }
    }

    func write(to writer: inout ChoiceWriter) {
        let flag: UInt8 = wrongID ? 4 : 0
        switch source {
        case .bytes(let bytes):
            writer.byte(flag)
            writer.bytes(bytes)
        case .reference(let pool, let index):
            writer.byte(flag | 1)
            writer.byte(pool == .seed ? 0 : 1)
            writer.byte(UInt8(index))
        case .large(let index):
            writer.byte(flag | 2)
            writer.byte(UInt8(index))
        }
    }
}
