public import Foundation
public import NIOCore
public import WOPIChunking
public import WOPIModels

/// A test client's side of CSPP Plus incremental file transfer: cutting content into chunks, writing request
/// bodies of frames, and reading response bodies back.
public enum ChunkedTransferFrames {
    /// One chunk of test content.
    public struct Chunk: Sendable, Hashable {
        public var id: ChunkID
        public var bytes: [UInt8]

        /// A chunk of `bytes` named `id` (a test may name it wrongly on purpose).
        public init(id: ChunkID, bytes: [UInt8]) {
            self.id = id
            self.bytes = bytes
        }
    }

    /// `content` cut as a host cuts it (``ZipChunker``), with whether it was cut as a zip.
    public static func chunks(of content: [UInt8]) -> (chunks: [Chunk], isZip: Bool) {
        var chunker = ZipChunker()
        var chunks: [Chunk] = []
        var pending: [UInt8] = []
        let events = chunker.consume(ByteBuffer(bytes: content)) + chunker.finish()
        for event in events {
            switch event {
            case .bytes(let buffer): pending += Array(buffer.readableBytesView)
            case .chunkEnd(let id, _):
                chunks.append(Chunk(id: id, bytes: pending))
                pending = []
            }
        }
        return (chunks, chunker.isZip)
    }

    /// A request body: the MessageJSON of `message`, a Chunk frame for each of `chunks`, the EndFrame.
    public static func body(_ message: some Encodable, chunks: [Chunk] = []) throws -> ByteBuffer {
        let json = try JSONEncoder().encode(message)
        var buffer = ByteBuffer(bytes: FrameHeader.messageJSON(length: UInt64(json.count)).encoded)
        buffer.writeBytes(json)
        for chunk in chunks {
            buffer.writeBytes(FrameHeader.chunk(chunk.id, length: UInt64(chunk.bytes.count)).encoded)
            buffer.writeBytes(chunk.bytes)
        }
        buffer.writeBytes(FrameHeader.end.encoded)
        return buffer
    }

    /// An upload session's byte stream (CreateUploadSession, UpdateUploadSession): a Chunk frame for each of
    /// `chunks`, with no MessageJSON before them and no EndFrame after.
    public static func sessionStream(_ chunks: [Chunk]) -> [UInt8] {
        var stream: [UInt8] = []
        for chunk in chunks {
            stream += FrameHeader.chunk(chunk.id, length: UInt64(chunk.bytes.count)).encoded + chunk.bytes
        }
        return stream
    }

    /// A response body read back: its MessageJSON and its Chunk (and ChunkRange) frames in order.
    public struct Response: Sendable {
        public var message: Data
        public var frames: [(header: FrameHeader, payload: [UInt8])]

        /// The MessageJSON decoded.
        public func decoded<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONDecoder().decode(type, from: message)
        }

        /// The Chunk frames' payloads by ID.
        public var chunks: [ChunkID: [UInt8]] {
            var chunks: [ChunkID: [UInt8]] = [:]
            for (header, payload) in frames { if let id = header.chunkID { chunks[id] = payload } }
            return chunks
        }
    }

    /// Reads a response body; throws unless it is a MessageJSON, frames, and the EndFrame.
    public static func read(_ body: ByteBuffer) throws -> Response {
        var decoder = FrameDecoder()
        var message: Data?
        var frames: [(header: FrameHeader, payload: [UInt8])] = []
        var current: FrameHeader?
        var payload: [UInt8] = []
        for event in try decoder.decode(body) {
            switch event {
            case .header(let header):
                current = header
                payload = []
            case .payload(let part): payload += Array(part.readableBytesView)
            case .frameEnd:
                guard let header = current else { continue }
                if header.type == .messageJSON { message = Data(payload) } else { frames.append((header, payload)) }
            case .end: break
            }
        }
        try decoder.finish()
        guard let message else { throw ReadError.missingMessage }
        return Response(message: message, frames: frames)
    }

    /// The stream a response's signature describes, put together from the chunks the client knew and those sent.
    public static func content(
        of signature: StreamSignature, known: [Chunk], sent: [ChunkID: [UInt8]]
    ) -> [UInt8]? {
        let knownBytes = Dictionary(known.map { ($0.id, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var content: [UInt8] = []
        for chunk in signature.chunkSignatures {
            guard let id = ChunkID(base64: chunk.chunkID), let bytes = sent[id] ?? knownBytes[id] else { return nil }
            content += bytes
        }
        return content
    }

    /// Why a response body is not what a test expected.
    public enum ReadError: Error {
        case missingMessage
    }
}

/// A minimal zip writer for tests: stored (uncompressed) entries, local headers, central directory.
public enum TestZip {
    /// A zip of `entries`, in order.
    public static func make(_ entries: [(name: String, content: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ value: Int, _ into: inout [UInt8]) { into += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32, _ into: inout [UInt8]) {
            for shift in [0, 8, 16, 24] { into.append(UInt8(value >> UInt32(shift) & 0xFF)) }
        }
        for (name, content) in entries {
            let offset = UInt32(out.count)
            let crc = crc32(content)
            let nameBytes = Array(name.utf8)
            out += [0x50, 0x4B, 0x03, 0x04]
            u16(20, &out); u16(0, &out); u16(0, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(UInt32(content.count), &out); u32(UInt32(content.count), &out)
            u16(nameBytes.count, &out); u16(0, &out)
            out += nameBytes + content
            central += [0x50, 0x4B, 0x01, 0x02]
            u16(20, &central); u16(20, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
            u32(crc, &central); u32(UInt32(content.count), &central); u32(UInt32(content.count), &central)
            u16(nameBytes.count, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
            u32(0, &central); u32(offset, &central)
            central += nameBytes
        }
        let centralOffset = UInt32(out.count)
        out += central
        out += [0x50, 0x4B, 0x05, 0x06]
        u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(central.count), &out); u32(centralOffset, &out); u16(0, &out)
        return out
    }

    /// CRC-32 (the zip and PNG polynomial), a byte at a time through a table: test zips run to tens of MiB, and
    /// a bit at a time in a debug build made their checksums the larger part of some tests' time.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in buffer { crc = crcTable[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8) }
            return ~crc
        }
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }
}
