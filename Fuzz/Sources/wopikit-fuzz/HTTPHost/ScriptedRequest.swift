/// One request of a script: its route, which item and token, its path's shape, its headers and its body.
///
/// Bytes, in order: the route (read by ``ScriptStep``), item, credential, options, path shape, header count and
/// headers, body. A request whose bytes ran out is the common case of every choice: the operation's own item, a valid
/// edit token, the operation's natural headers and body.
struct ScriptedRequest: Equatable, Sendable {
    static let maximumHeaders = 6

    var route: Route
    var item = ItemChoice.primary
    var credential = CredentialChoice.edit
    var options = RequestOptions()
    var path = PathShape()
    var headers: [HeaderChoice] = []
    var body = BodyChoice.natural

    init(
        _ operation: Operation, item: ItemChoice = .primary, credential: CredentialChoice = .edit,
        options: RequestOptions = RequestOptions(), path: PathShape = PathShape(), headers: [HeaderChoice] = [],
        body: BodyChoice = .natural
    ) {
        self.init(
            route: .operation(operation), item: item, credential: credential, options: options, path: path,
            headers: headers, body: body)
    }

    init(
        route: Route, item: ItemChoice = .primary, credential: CredentialChoice = .edit,
        options: RequestOptions = RequestOptions(), path: PathShape = PathShape(), headers: [HeaderChoice] = [],
        body: BodyChoice = .natural
    ) {
        self.route = route
        self.item = item
        self.credential = credential
        self.options = options
        self.path = path
        self.headers = headers
        self.body = body
    }

    init(route: Route, from reader: inout ChoiceReader) {
        self.route = route
        item = ItemChoice(from: &reader)
        credential = CredentialChoice(from: &reader)
        options = RequestOptions(from: &reader)
        path = PathShape(from: &reader)
        let count = reader.index(below: Self.maximumHeaders + 1)
        headers = (0..<count).map { _ in HeaderChoice(from: &reader) }
        body = BodyChoice(from: &reader)
    }

    /// Everything after the route.
    func write(to writer: inout ChoiceWriter) {
        item.write(to: &writer)
        credential.write(to: &writer)
        options.write(to: &writer)
        path.write(to: &writer)
        writer.byte(UInt8(headers.count))
        for header in headers { header.write(to: &writer) }
        body.write(to: &writer)
    }
}

/// The item a request names.
enum ItemChoice: Choice {
    /// `notes.txt` on a file endpoint, `Folder` on a container endpoint.
    case primary
    /// `deck.pptx` (a zip), or Ana's root container.
    case secondary
    /// `Folder/inner.docx` (made from a template), or the root again.
    case inner
    /// The last file or container an earlier request of the script created (else ``primary``).
    case created
    /// Bob's `bob.txt` (shared with Ana to view), or Bob's root (not shared).
    case otherUsers
    /// The "Shared with me" container's ID.
    case sharedWithMe
    /// A container on a file endpoint, a file on a container endpoint.
    case otherKind
    /// A well-formed ID no item has.
    case missing
    /// Any text as the ID (percent-encoded into the path).
    case text(String)

    private static let simple: [ItemChoice] = [
        .primary, .secondary, .inner, .created, .otherUsers, .sharedWithMe, .otherKind, .missing,
    ]

    init(from reader: inout ChoiceReader) {
        let index = reader.index(below: Self.simple.count + 1)
        self = index < Self.simple.count ? Self.simple[index] : .text(reader.text(upTo: 300))
    }

    func write(to writer: inout ChoiceWriter) {
        if case .text(let text) = self {
            writer.byte(UInt8(Self.simple.count))
            writer.bytes(Array(text.utf8))
        } else {
            writer.pick(self, in: Self.simple)
        }
    }
}

/// The access token a request carries (`?access_token=`, or `Authorization: Bearer`).
enum CredentialChoice: Choice {
    /// Ana's edit token for the item: half of all byte values.
    case edit
    case view
    /// Bob's edit token for the item.
    case otherUser
    case expired
    /// A valid token with one character changed.
    case tampered
    /// Ana's edit token for another item.
    case otherItem
    case ecosystem
    case none
    /// The edit token in `Authorization: Bearer` instead of the query.
    case bearer
    /// The edit token in the query and another user's in `Authorization`.
    case both
    case text(String)

    private static let others: [CredentialChoice] = [
        .view, .otherUser, .expired, .tampered, .otherItem, .ecosystem, .none, .bearer, .both,
    ]

    init(from reader: inout ChoiceReader) {
        let byte = reader.byte()
        guard byte >= 128 else {
            self = .edit
            return
        }
        let index = Int(byte - 128) % (Self.others.count + 1)
        self = index < Self.others.count ? Self.others[index] : .text(reader.text(upTo: 600))
    }

    func write(to writer: inout ChoiceWriter) {
        switch self {
        case .edit: writer.byte(0)
        case .text(let text):
            writer.byte(UInt8(128 + Self.others.count))
            writer.bytes(Array(text.utf8))
        default: writer.byte(UInt8(128 + Self.others.firstIndex(of: self)!))
        }
    }
}

/// How a request deviates from what a client sends (one byte of flags; 0 is none).
struct RequestOptions: Choice {
    /// Leave out the headers the operation needs (``NaturalHeaders``).
    var withoutNaturalHeaders = false
    /// Send the body without a known length (chunked transfer encoding).
    var unknownLength = false
    /// On a host with proof keys, send no signature.
    var unsigned = false
    /// How the body arrives: 0 in one buffer, else in pieces of this class (1, 7, 64, 1000, 70,000 bytes...).
    var pieces: UInt8 = 0

    static let pieceSizes = [Int.max, 1, 7, 64, 1000, 4096, 70_000, 300_000]

    init(withoutNaturalHeaders: Bool = false, unknownLength: Bool = false, unsigned: Bool = false, pieces: UInt8 = 0) {
        self.withoutNaturalHeaders = withoutNaturalHeaders
        self.unknownLength = unknownLength
        self.unsigned = unsigned
        self.pieces = pieces % UInt8(Self.pieceSizes.count)
    }

    init(from reader: inout ChoiceReader) {
        let bits = reader.byte()
        self.init(
            withoutNaturalHeaders: bits & 1 != 0, unknownLength: bits & 2 != 0, unsigned: bits & 4 != 0,
            pieces: bits >> 3)
    }

    func write(to writer: inout ChoiceWriter) {
        var bits = pieces << 3
        if withoutNaturalHeaders { bits |= 1 }
        if unknownLength { bits |= 2 }
        if unsigned { bits |= 4 }
        writer.byte(bits)
    }

    var pieceSize: Int { Self.pieceSizes[Int(pieces)] }
}

/// The shape of a request's path and query beyond the route (one byte of flags; 0 is `/wopi/files/{id}?access_token=`).
struct PathShape: Choice {
    var bits: UInt8 = 0

    static let upperCaseRoot: UInt8 = 1
    static let prefixed: UInt8 = 2
    static let trailingSlash: UInt8 = 4
    static let percentEncodedID: UInt8 = 8
    static let secondToken: UInt8 = 16
    static let extraQuery: UInt8 = 32
    static let doubleSlashes: UInt8 = 64
    static let emptyQueryPairs: UInt8 = 128

    init(_ bits: UInt8 = 0) { self.bits = bits }
    init(from reader: inout ChoiceReader) { bits = reader.byte() }
    func write(to writer: inout ChoiceWriter) { writer.byte(bits) }

    func has(_ flag: UInt8) -> Bool { bits & flag != 0 }
}

/// One header a request sends beyond (or instead of) its natural ones.
struct HeaderChoice: Choice {
    var name: String
    var value: HeaderValue
    /// Send the field twice: this value, then the natural one (a repeated field reads as both joined by a comma).
    var repeated = false

    init(_ name: String, _ value: HeaderValue, repeated: Bool = false) {
        self.name = name
        self.value = value
        self.repeated = repeated
    }

    /// Three bytes (name, kind, argument: the hostile value's index, or the text's length before the text), so that a
    /// change of kind leaves the rest of the input where it was. Half of the kinds are hostile; bit 7 repeats the field.
    init(from reader: inout ChoiceReader) {
        name = reader.pick(FuzzHeaders.names)
        let kind = reader.byte()
        repeated = kind & 0x80 != 0
        switch kind & 7 {
        case 0:
            value = .natural
            _ = reader.byte()
        case 1:
            value = .alternate
            _ = reader.byte()
        case 2, 3, 4, 5: value = .hostile(reader.pick(HostileValues.values(for: name)))
        default: value = .text(reader.text(upTo: 8192))
        }
    }

    func write(to writer: inout ChoiceWriter) {
        writer.pick(name, in: FuzzHeaders.names)
        let flag: UInt8 = repeated ? 0x80 : 0
        switch value {
        case .natural:
            writer.byte(flag)
            writer.byte(0)
        case .alternate:
            writer.byte(flag | 1)
            writer.byte(0)
        case .hostile(let value):
            writer.byte(flag | 2)
            writer.pick(value, in: HostileValues.values(for: name))
        case .text(let text):
            writer.byte(flag | 6)
            writer.bytes(Array(text.utf8))
        }
    }
}

/// A header's value.
enum HeaderValue: Equatable, Sendable {
    /// What a client would send here, from what the script saw so far (the upload session's token and offset, the
    /// sequence number, the body's length...).
    case natural
    /// A second plausible value: another lock ID, the next offset, one byte more.
    case alternate
    /// One of ``HostileValues/values(for:)``.
    case hostile(String)
    case text(String)
}

extension ChoiceReader {
    /// A run of bytes as text (bytes that are not UTF-8 become U+FFFD).
    mutating func text(upTo limit: Int) -> String { String(decoding: bytes(upTo: limit), as: UTF8.self) }
}
