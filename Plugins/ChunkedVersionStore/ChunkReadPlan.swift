import NIOCore

/// A chunk of a version, as a reader finds it: where it is in the file, and where its pieces are stored.
struct ChunkReference: Sendable {
    var start: Int64
    var length: Int64
    var stored: PieceKey
    var pieceSize: Int64
    /// Whether its bytes are a file (``ChunkFiles``), else pieces in the database.
    var inFile: Bool

    /// A row of ``ChunkSQL/chunkList(of:endingAfter:limit:)``.
    init?(_ row: SQLRow) {
        guard row.count == 7, let start = row[1].integer, let length = row[2].integer,
            let versionID = row[3].integer, let chunkIndex = row[4].integer, let pieceSize = row[5].integer,
            pieceSize > 0, let inFile = row[6].integer
        else { return nil }
        self.inFile = inFile == 1
        self.start = start
        self.length = length
        self.stored = PieceKey(versionID: versionID, chunkIndex: chunkIndex)
        self.pieceSize = pieceSize
    }

    /// How many pieces the chunk has.
    var pieceCount: Int64 { (length + pieceSize - 1) / pieceSize }
}

/// What one fetch of a reader reads: from `offset`, up to ``ChunkBodyStore/readSize`` of one chunk body (``file``),
/// or, in one statement, part of one chunk of pieces larger than ``ChunkedStorageConfiguration/bytesPerStatement``,
/// or as many whole chunks of pieces as fit in it (at least one).
struct ChunkReadPlan {
    struct Part {
        var chunk: ChunkReference
        var pieces: Range<Int64>
    }

    /// The chunks and their pieces to fetch, in file order.
    private(set) var parts: [Part] = []
    /// The chunk file and the range of its bytes to read, instead of ``parts``.
    private(set) var file: (key: PieceKey, range: Range<Int64>)?
    private let offset: Int64
    /// Where the fetched bytes end in the file.
    private(set) var end: Int64

    /// The plan for reading from `offset` up to at most `limit`, over `window` (the next chunks, in order), a chunk
    /// body `bodyReadSize` bytes at most at a time (``ChunkBodyStore/readSize``).
    init(window: [ChunkReference], from offset: Int64, to limit: Int64, bodyReadSize: Int64) {
        self.offset = offset
        self.end = offset
        let budget = ChunkedStorageConfiguration.bytesPerStatement
        var bytes: Int64 = 0
        if let chunk = window.first, chunk.inFile, chunk.start <= offset {
            end = min(chunk.start + chunk.length, limit, offset + bodyReadSize)
            file = (chunk.stored, (offset - chunk.start)..<(end - chunk.start))
            return
        }
        for chunk in window where chunk.start < limit && parts.count < Self.maximumParts {
            // A chunk file is read by a fetch of its own.
            if chunk.inFile { return }
            let from = max(end, chunk.start) - chunk.start
            let chunkEnd = min(chunk.start + chunk.length, limit)
            let firstPiece = from / chunk.pieceSize
            if parts.isEmpty && chunkEnd - (chunk.start + from) > budget {
                // A large chunk: a statement's worth of its pieces.
                let count = ChunkedStorageConfiguration.chunksPerStatement(chunkSize: chunk.pieceSize)
                let lastPiece = min(
                    firstPiece + count, (chunkEnd - chunk.start + chunk.pieceSize - 1) / chunk.pieceSize)
                parts.append(Part(chunk: chunk, pieces: firstPiece..<lastPiece))
                end = min(chunk.start + lastPiece * chunk.pieceSize, chunkEnd)
                return
            }
            if !parts.isEmpty && bytes + chunkEnd - (chunk.start + from) > budget { return }
            let lastPiece = (chunkEnd - chunk.start + chunk.pieceSize - 1) / chunk.pieceSize
            parts.append(Part(chunk: chunk, pieces: firstPiece..<lastPiece))
            bytes += chunkEnd - (chunk.start + from)
            end = chunkEnd
        }
    }

    /// The most chunks one statement fetches (it names each).
    private static let maximumParts = 64

    /// The bytes of `rows` (rows of ``ChunkSQL/pieces(_:)`` for ``parts``) from `offset` to ``end``, a buffer
    /// per piece; `nil` when a piece is missing or short (the version was deleted).
    func pieces(from rows: [SQLRow]) -> [ByteBuffer]? {
        var stored: [PieceKey: [Int64: ByteBuffer]] = [:]
        for row in rows {
            guard row.count == 4, let versionID = row[0].integer, let chunkIndex = row[1].integer,
                let pieceIndex = row[2].integer, case .blob(let data) = row[3]
            else { return nil }
            stored[PieceKey(versionID: versionID, chunkIndex: chunkIndex), default: [:]][pieceIndex] = data
        }
        var result: [ByteBuffer] = []
        for part in parts {
            let chunk = part.chunk
            for index in part.pieces {
                let pieceStart = chunk.start + index * chunk.pieceSize
                let pieceLength = min(chunk.pieceSize, chunk.length - index * chunk.pieceSize)
                guard let data = stored[chunk.stored]?[index], data.readableBytes == pieceLength else { return nil }
                let from = max(offset, pieceStart)
                let to = min(end, pieceStart + pieceLength)
                guard from < to else { continue }
                guard
                    let slice = data.getSlice(
                        at: data.readerIndex + Int(from - pieceStart), length: Int(to - from))
                else { return nil }
                result.append(slice)
            }
        }
        return result
    }
}
