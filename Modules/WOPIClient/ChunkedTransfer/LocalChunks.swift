import Foundation
import NIOCore
public import WOPIChunking

/// One chunk of a local file: its ID and where it lies.
public struct LocalChunk: Sendable, Hashable {
    /// The chunk's ID.
    public var id: ChunkID
    /// Where it starts in the file.
    public var offset: Int64
    /// Its length in bytes.
    public var length: Int64
}

/// A local file cut into CSPP Plus chunks by the same `Zip`/`FullFile` rules as the host (``ZipChunker``), read
/// once in 256 KiB pieces.
public struct LocalChunks: Sendable, Hashable {
    /// The chunks in file order.
    public var chunks: [LocalChunk]
    /// `true` for the `Zip` scheme, `false` for `FullFile`.
    public var isZip: Bool
    /// The file's length.
    public var length: Int64 { chunks.last.map { $0.offset + $0.length } ?? 0 }

    /// Cuts the file `file` into chunks.
    public init(of file: ChunkFile) throws {
        var chunker = ZipChunker()
        var chunks: [LocalChunk] = []
        var offset: Int64 = 0
        func take(_ events: [ChunkEvent]) {
            for case .chunkEnd(let id, let length) in events {
                chunks.append(LocalChunk(id: id, offset: offset, length: length))
                offset += length
            }
        }
        try file.read(offset: 0, length: file.length()) { take(chunker.consume(ByteBuffer(bytes: $0))) }
        take(chunker.finish())
        self.chunks = chunks
        self.isZip = chunker.isZip
    }
}
