import WOPIChunking

extension ContentChunkList {
    /// The chunk list of `content` (the bytes of `version`), cut by ``ZipChunker`` as a chunked backend cuts what
    /// it stores: the `Zip` scheme for a zip, `FullFile` otherwise; an empty file has no chunk and is `FullFile`.
    /// Reads `content` once, in constant memory.
    public init(cutting content: ByteStream, version: String) async throws {
        var chunker = ZipChunker()
        var chunks: [ContentChunk] = []
        var offset: Int64 = 0
        func collect(_ events: [ChunkEvent]) {
            for case .chunkEnd(let id, let length) in events {
                chunks.append(ContentChunk(id: id, offset: offset, length: length))
                offset += length
            }
        }
        for try await buffer in content { collect(chunker.consume(buffer)) }
        collect(chunker.finish())
        self.init(version: version, isZip: chunker.isZip && !chunks.isEmpty, chunks: chunks)
    }
}
