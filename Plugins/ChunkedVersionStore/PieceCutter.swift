import Foundation
import NIOCore
import WOPIChunking

/// Cuts a body into content-defined chunks (``ZipChunker``: the `Zip` scheme for a zip, `FullFile` otherwise) and
/// each chunk into pieces of at most `pieceSize` bytes, as it streams by, in constant memory: a chunk of 1 GiB is
/// handed over piece by piece, and keyed (``ChunkSQL/Key``) once its last byte went by and its ID is known.
struct PieceCutter {
    /// What a flush stores: pieces, then the keys of the chunks whose last piece is among them or earlier.
    struct Batch: Sendable {
        var pieces: [ChunkSQL.Piece] = []
        var keys: [ChunkSQL.Key] = []
    }

    private let pieceSize: Int
    private var chunker = ZipChunker()
    private var batch = Batch()
    /// The piece being filled.
    private var piece: Data
    /// Buffers of stored pieces, emptied for reuse: a write allocates two batches' worth, not one per piece.
    private var spare: [Data] = []
    private var chunkIndex = 0
    private var pieceIndex = 0
    private var chunkOffset: Int64 = 0

    init(pieceSize: Int) {
        self.pieceSize = pieceSize
        self.piece = Data(capacity: pieceSize)
    }

    /// How many bytes the batch's pieces hold.
    private(set) var batchedBytes = 0

    /// Cuts the next bytes.
    mutating func consume(_ buffer: ByteBuffer) {
        handle(chunker.consume(buffer))
    }

    /// Ends the body; returns whether it was cut as a zip.
    mutating func finish() -> Bool {
        handle(chunker.finish())
        return chunker.isZip && chunkIndex > 0
    }

    /// The pieces and keys cut since the last call.
    mutating func takeBatch() -> Batch {
        defer {
            batch = Batch()
            batchedBytes = 0
        }
        return batch
    }

    /// Keeps the buffers of a stored batch for reuse.
    mutating func recycle(_ stored: Batch) {
        for old in stored.pieces where old.data.count == pieceSize {
            var buffer = old.data
            buffer.removeAll(keepingCapacity: true)
            spare.append(buffer)
        }
    }

    private mutating func handle(_ events: [ChunkEvent]) {
        for event in events {
            switch event {
            case .bytes(var buffer):
                while buffer.readableBytes > 0 {
                    let take = min(pieceSize - piece.count, buffer.readableBytes)
                    buffer.readWithUnsafeReadableBytes { bytes in
                        piece.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<take]))
                        return take
                    }
                    if piece.count == pieceSize { closePiece() }
                }
            case .chunkEnd(let id, let length):
                if !piece.isEmpty { closePiece() }
                batch.keys.append(ChunkSQL.Key(chunkIndex: chunkIndex, id: id, offset: chunkOffset, length: length))
                chunkIndex += 1
                pieceIndex = 0
                chunkOffset += length
            }
        }
    }

    private mutating func closePiece() {
        batchedBytes += piece.count
        if piece.count == pieceSize {
            batch.pieces.append(ChunkSQL.Piece(chunkIndex: chunkIndex, pieceIndex: pieceIndex, data: piece))
            piece = spare.popLast() ?? Data(capacity: pieceSize)
        } else {
            // A chunk's short last piece (a zip has many): a copy of its size, the buffer kept for the next one.
            let short = piece.withUnsafeBytes { Data($0) }
            batch.pieces.append(ChunkSQL.Piece(chunkIndex: chunkIndex, pieceIndex: pieceIndex, data: short))
            piece.removeAll(keepingCapacity: true)
        }
        pieceIndex += 1
    }
}
