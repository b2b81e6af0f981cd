import NIOCore
import Testing
import WOPIChunking

/// The frame protocol of Microsoft's "encode-send-data" page: big-endian 16-byte headers, then the extended
/// header, then the payload; read in any split without buffering payloads.
struct FrameDecoderTests {
    static let id = SpookyHash.hash(Array("chunk".utf8))
    static let json = Array(#"{"ContentStreams":[]}"#.utf8)
    static let chunk = Array("chunk".utf8)

    /// A body as the validator writes one: MessageJSON, one Chunk, the EndFrame.
    static var body: [UInt8] {
        FrameHeader.messageJSON(length: UInt64(json.count)).encoded + json
            + FrameHeader.chunk(id, length: UInt64(chunk.count)).encoded + chunk + FrameHeader.end.encoded
    }

    @Test func headersAreBigEndian() {
        #expect(
            FrameHeader.messageJSON(length: 0x0102).encoded
                == [0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x02])
        let chunkHeader = FrameHeader.chunk(Self.id, length: 5).encoded
        #expect(Array(chunkHeader[0..<16]) == [0, 0, 0, 3, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 5])
        #expect(Array(chunkHeader[16...]) == Self.id.bytes)
        #expect(FrameHeader.end.encoded == [0, 0, 0, 1] + [UInt8](repeating: 0, count: 12))
    }

    /// Decodes `bytes` fed in pieces of `step` bytes; returns the headers and each frame's payload.
    static func decode(_ bytes: [UInt8], step: Int) throws -> (headers: [FrameHeader], payloads: [[UInt8]], ended: Bool)
    {
        var decoder = FrameDecoder()
        var headers: [FrameHeader] = []
        var payloads: [[UInt8]] = []
        var current: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            for event in try decoder.decode(ByteBuffer(bytes: bytes[start..<end])) {
                switch event {
                case .header(let header): headers.append(header)
                case .payload(let part): current += Array(part.readableBytesView)
                case .frameEnd:
                    payloads.append(current)
                    current = []
                case .end: break
                }
            }
            start = end
        }
        return (headers, payloads, decoder.isComplete)
    }

    @Test(arguments: [1, 2, 7, 16, 17, 1000])
    func aBodyReadsTheSameInAnySplit(_ step: Int) throws {
        let (headers, payloads, ended) = try Self.decode(Self.body, step: step)
        #expect(headers.map(\.type) == [.messageJSON, .chunk, .endFrame])
        #expect(headers[1].chunkID == Self.id)
        #expect(payloads == [Self.json, Self.chunk])
        #expect(ended)
    }

    @Test func aPayloadIsPassedOnInPartsNotCollected() throws {
        let big = [UInt8](repeating: 7, count: 100_000)
        let bytes = FrameHeader.chunk(Self.id, length: UInt64(big.count)).encoded + big + FrameHeader.end.encoded
        var decoder = FrameDecoder()
        var largest = 0
        var start = 0
        while start < bytes.count {
            let end = min(start + 4096, bytes.count)
            for case .payload(let part) in try decoder.decode(ByteBuffer(bytes: bytes[start..<end])) {
                largest = max(largest, part.readableBytes)
            }
            start = end
        }
        #expect(largest <= 4096)
        try decoder.finish()
    }

    @Test func malformedStreamsAreRefused() throws {
        func refuses(_ bytes: [UInt8], _ what: String) {
            var decoder = FrameDecoder()
            #expect(throws: FrameError.self, "\(what)") { _ = try decoder.decode(ByteBuffer(bytes: bytes)) }
        }
        refuses([0, 0, 0, 0] + [UInt8](repeating: 0, count: 12), "frame type 0 (Undefined)")
        refuses([0, 0, 0, 9] + [UInt8](repeating: 0, count: 12), "an unknown frame type")
        refuses([0, 0, 0, 3, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8), "a Chunk with a 4-byte ID")
        refuses([0, 0, 0, 4, 0, 0, 0x10, 0] + [UInt8](repeating: 0, count: 8), "a 4 KB extended header")
        refuses([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], "an EndFrame with a payload")
        refuses(Self.body + [0], "a byte after the EndFrame")
        var decoder = FrameDecoder()
        _ = try decoder.decode(ByteBuffer(bytes: Self.body.dropLast(3)))
        #expect(throws: FrameError.self) { try decoder.finish() }
    }

    @Test func aChunkRangeKeepsItsExtendedHeader() throws {
        let extended = Self.id.bytes + [0, 0, 0, 0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0]
        let header = FrameHeader(type: .chunkRange, extendedHeader: extended, payloadLength: 3)
        let (headers, payloads, _) = try Self.decode(header.encoded + [1, 2, 3] + FrameHeader.end.encoded, step: 5)
        #expect(headers.first == header)
        #expect(payloads == [[1, 2, 3]])
    }
}
