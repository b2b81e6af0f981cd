public import NIOCore

/// What a ``ZipChunker`` emits: each chunk's bytes as they stream by, then its ID and length.
public enum ChunkEvent: Sendable, Hashable {
    /// The next bytes of the current chunk.
    case bytes(ByteBuffer)
    /// The current chunk is complete.
    case chunkEnd(ChunkID, length: Int64)
}

/// Cuts a file into CSPP Plus chunks as it streams by, in constant memory, hashing each chunk with ``SpookyHash``.
///
/// For a zip (an Office document), the `Zip` scheme: one chunk for each entry's local header (signature, fixed
/// fields, name and extra field), one for each entry's data, and one from the central directory to the end. These
/// are the boundaries of the chunk lists Microsoft's WOPI validator ships with its zip test documents
/// (`Resources/ZipChunking/*/ChunkIds.txt`, start offsets). An entry whose sizes follow its data in a data
/// descriptor (general-purpose flag bit 3, as LibreOffice writes every entry) has its data chunk end after the
/// descriptor: the first `PK\u{7}\u{8}` signature whose compressed size is the number of data bytes before it. Anything
/// else, and a zip this reader cannot walk while streaming (Zip64 sizes, a descriptor without its signature),
/// continues as one chunk to the end: the `FullFile` scheme for a non-zip. An empty file has no chunks.
///
/// ```swift
/// var chunker = ZipChunker()
/// for try await buffer in content { for event in chunker.consume(buffer) { ... } }
/// for event in chunker.finish() { ... }
/// ```
public struct ZipChunker: Sendable {
    private enum Region: Sendable {
        /// Reading the 30 fixed bytes of a local header (or finding there is none).
        case localHeaderFixed([UInt8])
        /// The local header's name and extra field: this many bytes left.
        case localHeaderRest(remaining: Int)
        /// An entry's data: this many bytes left.
        case entryData(remaining: Int64)
        /// An entry's data whose length its data descriptor gives: `seen` bytes so far, the last 16 in `window`.
        case describedData(seen: Int64, window: DescriptorWindow)
        /// The rest of the file, one chunk.
        case tail
    }

    private static let localHeaderSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    private static let fixedLocalHeaderLength = 30

    private var region: Region = .localHeaderFixed([])
    private var hasher = SpookyHash()
    private var chunkLength: Int64 = 0
    private var pendingDataLength: Int64 = 0
    /// Whether the entry whose header is being read has a data descriptor.
    private var pendingDescriptor = false
    /// Whether the content is a zip walked entry by entry (false once it falls back to one chunk).
    public private(set) var isZip = true

    /// A chunker at the start of a file.
    public init() {}

    /// Cuts the next bytes of the file.
    public mutating func consume(_ input: ByteBuffer) -> [ChunkEvent] {
        var buffer = input
        var events: [ChunkEvent] = []
        while buffer.readableBytes > 0 {
            switch region {
            case .localHeaderFixed(var collected):
                let take = min(Self.fixedLocalHeaderLength - collected.count, buffer.readableBytes)
                let part = buffer.readSlice(length: take)!
                collected += Array(part.readableBytesView)
                append(part, &events)
                if !collected.prefix(4).elementsEqual(Self.localHeaderSignature.prefix(collected.count)) {
                    // Not a local header: the central directory, or a file that is not a zip, runs to the end. A
                    // header is read at the start of a chunk, so these bytes already open the tail's chunk.
                    if !anyChunkEnded { isZip = false }
                    region = .tail
                    continue
                }
                guard collected.count == Self.fixedLocalHeaderLength else {
                    region = .localHeaderFixed(collected)
                    continue
                }
                startHeader(collected, &events)
            case .localHeaderRest(let remaining):
                let take = min(remaining, buffer.readableBytes)
                append(buffer.readSlice(length: take)!, &events)
                if take == remaining {
                    endChunk(&events)
                    region = dataRegion
                } else {
                    region = .localHeaderRest(remaining: remaining - take)
                }
            case .entryData(let remaining):
                let take = Int(min(remaining, Int64(buffer.readableBytes)))
                append(buffer.readSlice(length: take)!, &events)
                if Int64(take) == remaining {
                    endChunk(&events)
                    region = .localHeaderFixed([])
                } else {
                    region = .entryData(remaining: remaining - Int64(take))
                }
            case .describedData(var seen, var window):
                let end = buffer.withUnsafeReadableBytes { raw -> Int? in
                    for (index, byte) in raw.enumerated() {
                        seen += 1
                        window.push(byte)
                        if seen >= DescriptorWindow.length,
                            window.isDescriptor(ofDataLength: seen - DescriptorWindow.length)
                        {
                            return index + 1
                        }
                    }
                    return nil
                }
                if let end {
                    append(buffer.readSlice(length: end)!, &events)
                    endChunk(&events)
                    region = .localHeaderFixed([])
                } else {
                    append(buffer.readSlice(length: buffer.readableBytes)!, &events)
                    region = .describedData(seen: seen, window: window)
                }
            case .tail:
                append(buffer.readSlice(length: buffer.readableBytes)!, &events)
            }
        }
        return events
    }

    /// Ends the file: closes the last chunk, if any bytes are in it.
    public mutating func finish() -> [ChunkEvent] {
        var events: [ChunkEvent] = []
        if chunkLength > 0 { endChunk(&events) }
        region = .tail
        return events
    }

    // MARK: - Parts

    /// Whether a chunk was cut already (a file whose first bytes are no local header is no zip).
    private var anyChunkEnded = false

    private mutating func append(_ part: ByteBuffer, _ events: inout [ChunkEvent]) {
        guard part.readableBytes > 0 else { return }
        part.withUnsafeReadableBytes { hasher.update($0) }
        chunkLength += Int64(part.readableBytes)
        events.append(.bytes(part))
    }

    private mutating func endChunk(_ events: inout [ChunkEvent]) {
        events.append(.chunkEnd(hasher.finalize(), length: chunkLength))
        hasher = SpookyHash()
        chunkLength = 0
        anyChunkEnded = true
    }

    private mutating func startHeader(_ fixed: [UInt8], _ events: inout [ChunkEvent]) {
        func integer(_ offset: Int, _ count: Int) -> Int64 {
            fixed[offset..<(offset + count)].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        let flags = integer(6, 2)
        let compressedSize = integer(18, 4)
        let rest = Int(integer(26, 2) + integer(28, 2))
        if compressedSize == 0xFFFF_FFFF {
            // Zip64 sizes: the data's length is not known here; the rest is one chunk.
            isZip = false
            region = .tail
            return
        }
        pendingDescriptor = flags & 0x0008 != 0
        pendingDataLength = compressedSize
        if rest == 0 {
            endChunk(&events)
            region = dataRegion
        } else {
            region = .localHeaderRest(remaining: rest)
        }
    }

    /// Where the data of the entry whose header just ended is read.
    private var dataRegion: Region {
        if pendingDescriptor { return .describedData(seen: 0, window: DescriptorWindow()) }
        return pendingDataLength > 0 ? .entryData(remaining: pendingDataLength) : .localHeaderFixed([])
    }
}

/// The last 16 bytes read, in two words (the newest byte lowest): enough to recognise a data descriptor
/// (`PK\u{7}\u{8}`, CRC-32, compressed size, uncompressed size, little-endian) as it streams by.
struct DescriptorWindow: Sendable {
    /// A data descriptor's length with its signature and 32-bit sizes.
    static let length: Int64 = 16

    private var older: UInt64 = 0
    private var newer: UInt64 = 0

    mutating func push(_ byte: UInt8) {
        older = older << 8 | newer >> 56
        newer = newer << 8 | UInt64(byte)
    }

    /// Whether the window holds a data descriptor whose compressed size is `dataLength`.
    func isDescriptor(ofDataLength dataLength: Int64) -> Bool {
        older >> 32 == 0x504B_0708 && Int64(UInt32(truncatingIfNeeded: newer >> 32).byteSwapped) == dataLength
    }
}
