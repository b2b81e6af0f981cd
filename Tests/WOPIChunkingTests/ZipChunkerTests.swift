import NIOCore
import Testing
import WOPIChunking

/// The Zip chunking scheme: a chunk per local header, per entry's data, and one for the central directory on.
struct ZipChunkerTests {
    /// A stored (uncompressed) zip entry's local header and data: `(header, data)`.
    static func entry(_ name: String, _ data: [UInt8], flags: UInt16 = 0, extra: [UInt8] = []) -> ([UInt8], [UInt8]) {
        // Sizes follow the data when flag bit 3 is set (a data descriptor); the header then has zeros.
        let size = flags & 0x0008 != 0 ? 0 : UInt32(data.count)
        let header: [UInt8] =
            [0x50, 0x4B, 0x03, 0x04] + le(UInt16(20)) + le(flags) + le(UInt16(0)) + le(UInt32(0)) + le(UInt32(0))
            + le(size) + le(size) + le(UInt16(name.utf8.count)) + le(UInt16(extra.count)) + Array(name.utf8) + extra
        return (header, data)
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    /// A data descriptor with its signature: CRC-32 (not checked here), compressed and uncompressed size.
    static func descriptor(size: Int) -> [UInt8] {
        [0x50, 0x4B, 0x07, 0x08] + le(UInt32(0x1234_5678)) + le(UInt32(size)) + le(UInt32(size))
    }

    static let entries = [
        entry("[Content_Types].xml", Array(repeating: 0x41, count: 300)),
        entry("word/document.xml", Array("<w:document/>".utf8), extra: [1, 0, 2, 0, 9, 9]),
        entry("empty.txt", []),
    ]
    static let centralDirectory: [UInt8] =
        [0x50, 0x4B, 0x01, 0x02] + Array(repeating: 7, count: 60)
        + [0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18)

    /// The chunks the scheme must give: each header, each non-empty data, the central directory on.
    static var expectedChunks: [[UInt8]] {
        entries.flatMap { header, data in data.isEmpty ? [header] : [header, data] } + [centralDirectory]
    }
    static var file: [UInt8] { expectedChunks.flatMap { $0 } }

    /// The chunks of `bytes` fed `step` bytes at a time: each chunk's streamed bytes, ID and length.
    static func chunks(_ bytes: [UInt8], step: Int) -> (chunks: [([UInt8], ChunkID, Int64)], isZip: Bool) {
        var chunker = ZipChunker()
        var result: [([UInt8], ChunkID, Int64)] = []
        var current: [UInt8] = []
        func take(_ events: [ChunkEvent]) {
            for event in events {
                switch event {
                case .bytes(let part): current += Array(part.readableBytesView)
                case .chunkEnd(let id, let length):
                    result.append((current, id, length))
                    current = []
                }
            }
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            take(chunker.consume(ByteBuffer(bytes: bytes[start..<end])))
            start = end
        }
        take(chunker.finish())
        return (result, chunker.isZip)
    }

    @Test(arguments: [1, 3, 29, 30, 31, 64, 100_000])
    func aZipIsCutAtHeadersDataAndTheCentralDirectory(_ step: Int) {
        let (chunks, isZip) = Self.chunks(Self.file, step: step)
        #expect(isZip)
        #expect(chunks.map(\.0) == Self.expectedChunks)
        for (bytes, id, length) in chunks {
            #expect(id == SpookyHash.hash(bytes))
            #expect(length == Int64(bytes.count))
        }
    }

    @Test func otherContentIsOneChunkAndEmptyContentNone() {
        let text = Array("not a zip at all".utf8)
        let (chunks, isZip) = Self.chunks(text, step: 4)
        #expect(!isZip)
        #expect(chunks.map(\.0) == [text])
        #expect(chunks.first?.1 == SpookyHash.hash(text))
        #expect(Self.chunks([], step: 1).chunks.isEmpty)
    }

    @Test(arguments: [1, 7, 16, 100_000])
    func anEntryWithADataDescriptorEndsAfterIt(_ step: Int) {
        let (first, firstData) = Self.entries[0]
        // The data holds a descriptor signature whose size does not match: not the end.
        let data: [UInt8] = Self.descriptor(size: 99) + [1, 2, 3]
        let (described, _) = Self.entry("later.bin", data, flags: 0x0008)
        let (last, lastData) = Self.entries[1]
        let file =
            first + firstData + described + data + Self.descriptor(size: data.count) + last + lastData
            + Self.centralDirectory
        let (chunks, isZip) = Self.chunks(file, step: step)
        #expect(isZip)
        #expect(
            chunks.map(\.0) == [
                first, firstData, described, data + Self.descriptor(size: data.count), last, lastData,
                Self.centralDirectory,
            ])
    }

    @Test func anEntryWhoseDescriptorCannotBeFoundRunsToTheEnd() {
        let (first, firstData) = Self.entries[0]
        let (described, describedData) = Self.entry("later.bin", [1, 2, 3], flags: 0x0008)
        let file = first + firstData + described + describedData + Self.centralDirectory
        let (chunks, isZip) = Self.chunks(file, step: 7)
        #expect(isZip)
        #expect(chunks.map(\.0) == [first, firstData, described, describedData + Self.centralDirectory])
    }
}
