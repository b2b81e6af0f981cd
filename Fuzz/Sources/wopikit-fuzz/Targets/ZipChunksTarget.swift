import NIOCore
import WOPIChunking

extension FuzzTarget {
    /// The Zip chunking scheme (`ZipChunker`, which reads the local headers of any uploaded file): the first byte
    /// picks how the rest is split. Chunks must cover the input exactly, in order, each named by the SpookyHash of
    /// its bytes, and any split must give the same chunks.
    static let zipChunks = FuzzTarget(name: "zip-chunks") { input in
        let (choice, rest) = input.selector
        let bytes = Array(rest.data)
        let whole = zipChunks(bytes, step: max(bytes.count, 1))
        fuzzCheck(whole == zipChunks(bytes, step: 1 + Int(choice % 64)), "the same chunks in any split")
        fuzzCheck(whole.flatMap(\.bytes) == bytes, "the chunks cover the input exactly")
        for chunk in whole {
            fuzzCheck(!chunk.bytes.isEmpty && chunk.length == Int64(chunk.bytes.count), "a chunk's length")
            fuzzCheck(chunk.id == SpookyHash.hash(chunk.bytes), "a chunk's ID is its hash")
        }
    }

    private static func zipChunks(_ bytes: [UInt8], step: Int) -> [CutChunk] {
        var chunker = ZipChunker()
        var chunks: [CutChunk] = []
        var current: [UInt8] = []
        func take(_ events: [ChunkEvent]) {
            for event in events {
                switch event {
                case .bytes(let part): current += Array(part.readableBytesView)
                case .chunkEnd(let id, let length):
                    chunks.append(CutChunk(bytes: current, id: id, length: length))
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
        return chunks
    }
}

private struct CutChunk: Equatable {
    var bytes: [UInt8]
    var id: ChunkID
    var length: Int64
}
