/// The frame types of CSPP Plus's binary transfer protocol (Microsoft's "encode-send-data" page): every frame is a
/// 16-byte big-endian header (type `UInt32`, extended-header size `UInt32`, payload size `UInt64`), the extended
/// header, then the payload.
public enum FrameType: UInt32, Sendable, Hashable, CaseIterable {
    /// The last frame of a body; no extended header, no payload.
    case endFrame = 1
    /// The first frame: the request's or response's JSON.
    case messageJSON = 2
    /// A whole chunk: the extended header is its 16-byte ``ChunkID``, the payload its bytes.
    case chunk = 3
    /// Part of a chunk: the extended header carries the chunk's ID, the part's place and flags (kept as sent).
    case chunkRange = 4
}

/// A frame's header: what comes before its payload.
public struct FrameHeader: Sendable, Hashable {
    /// The size of the fixed part: type, extended-header size, payload size.
    public static let fixedLength = 16

    /// The frame's type.
    public var type: FrameType
    /// The extended header: a ``ChunkID`` for ``FrameType/chunk``, more for ``FrameType/chunkRange``, else empty.
    public var extendedHeader: [UInt8]
    /// The number of payload bytes that follow.
    public var payloadLength: UInt64

    /// A header.
    public init(type: FrameType, extendedHeader: [UInt8] = [], payloadLength: UInt64) {
        self.type = type
        self.extendedHeader = extendedHeader
        self.payloadLength = payloadLength
    }

    /// The header of a MessageJSON frame of `length` bytes.
    public static func messageJSON(length: UInt64) -> FrameHeader {
        FrameHeader(type: .messageJSON, payloadLength: length)
    }

    /// The header of a Chunk frame.
    public static func chunk(_ id: ChunkID, length: UInt64) -> FrameHeader {
        FrameHeader(type: .chunk, extendedHeader: id.bytes, payloadLength: length)
    }

    /// The EndFrame.
    public static let end = FrameHeader(type: .endFrame, payloadLength: 0)

    /// The header's bytes on the wire (its fixed part big-endian, then the extended header).
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.fixedLength + extendedHeader.count)
        withUnsafeBytes(of: type.rawValue.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(extendedHeader.count).bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: payloadLength.bigEndian) { bytes.append(contentsOf: $0) }
        return bytes + extendedHeader
    }

    /// For a Chunk frame, its chunk's ID.
    public var chunkID: ChunkID? {
        type == .chunk ? ChunkID(bytes: extendedHeader) : nil
    }
}
