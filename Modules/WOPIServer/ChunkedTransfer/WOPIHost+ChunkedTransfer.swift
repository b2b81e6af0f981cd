import Foundation
import HTTPTypes
import Logging
import NIOCore
import WOPIChunking
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// The incremental-file-transfer operations (CSPP Plus; Docs/cspp-plus.md), with the file's content streams
    /// and the upload sessions kept in `stores`.
    func chunkedTransfer(
        _ operation: WOPIOperation.ChunkedTransfer, file id: ItemID, in stores: ChunkedTransferStores,
        request: WOPIRequest, context: RequestContext
    ) async throws -> WOPIResponse {
        let streams = stores.contentStreams
        switch operation {
        case .getChunkedFile:
            return try await getChunkedFile(id, streams: streams, request: request)
        case .putChunkedFile:
            return try await putChunkedFile(
                id, streams: streams, sessions: stores.uploadSessions, request: request, context: context)
        case .getChunks:
            return try await getChunks(id, streams: streams, request: request)
        case .getSequenceNumber:
            let file = try await context.file(id, in: storage)
            let record = try await currentContentRecord(of: id, version: file.version, in: streams)
            return Self.chunkedResponse(WOPIResponse(status: .ok), record: record, version: file.version)
        case .createUploadSession:
            return try await createUploadSession(id, sessions: stores.uploadSessions, context: context)
        case .updateUploadSession:
            return try await updateUploadSession(
                id, sessions: stores.uploadSessions, request: request, context: context)
        }
    }

    // MARK: - GetChunkedFile

    /// GetChunkedFile: the signatures of the streams asked for, the content properties asked for, and the chunks
    /// the client does not know, streamed from the backend.
    private func getChunkedFile(_ id: ItemID, streams: any ContentStreamStore, request: WOPIRequest) async throws
        -> WOPIResponse
    {
        let message = try await IncomingFrames<GetChunkedFileRequestMessage>.read(request.body, acceptsChunks: false)
            .message
        let (main, record) = try await consistentStreams(of: id, in: streams)
        var frames: [(FrameHeader, OutgoingFrames.Payload)] = []
        var signatures: [StreamSignature] = []
        var sent = Set<ChunkID>()
        for filter in message.contentFilters {
            let stream = try await ContentStream(filter.streamID, main: main, record: record, file: id)
            signatures.append(stream.list.signature(streamID: filter.streamID))
            let known = Set(filter.alreadyKnownChunks)
            let wanted: ArraySlice<ContentChunk> =
                switch filter.chunksToReturn {
                case .all: stream.list.chunks[...]
                case .none: []
                case .lastZipChunk: stream.list.isZip ? stream.list.chunks.suffix(1) : []
                }
            for chunk in wanted where !known.contains(chunk.id.base64) && sent.insert(chunk.id).inserted {
                frames.append((.chunk(chunk.id, length: UInt64(chunk.length)), stream.payload(of: chunk)))
            }
        }
        let wantedProperties = Set(message.contentPropertiesToReturn)
        var body = try OutgoingFrames(
            message: GetChunkedFileResponseMessage(
                contentProperties: record.properties.filter { wantedProperties.contains($0.name) },
                signatures: signatures))
        for (header, payload) in frames { body.append(header, payload) }
        let response = WOPIResponse(status: .ok, headers: [:], body: .stream(body.body(from: storage)))
        return Self.chunkedResponse(response, record: record, version: main.version)
    }

    // MARK: - GetChunks

    /// GetChunks: the chunk ranges asked for, as ChunkRange frames (a chunk no longer in the stream is left out).
    /// The answer carries at most the bytes of the streams asked for, each counted once: a small request that
    /// repeats a range is a `400`, not an amplified answer.
    private func getChunks(_ id: ItemID, streams: any ContentStreamStore, request: WOPIRequest) async throws
        -> WOPIResponse
    {
        let message = try await IncomingFrames<GetChunksRequestMessage>.read(request.body, acceptsChunks: false)
            .message
        let (main, record) = try await consistentStreams(of: id, in: streams)
        var frames: [(FrameHeader, OutgoingFrames.Payload)] = []
        var returned: [GetChunksRequestMessage.ContentFilter] = []
        var budget: Int64 = 0
        var counted = Set<String>()
        for filter in message.contentFilters {
            let stream = try await ContentStream(filter.streamID, main: main, record: record, file: id)
            if counted.insert(filter.streamID).inserted { budget += stream.list.chunks.reduce(0) { $0 + $1.length } }
            var ranges: [GetChunksRequestMessage.ChunkRange] = []
            for range in filter.chunkRangesToReturn {
                guard let chunk = stream.list.chunks.first(where: { $0.id.base64 == range.chunkID }),
                    (0..<max(chunk.length, 1)).contains(range.offset)
                else { continue }
                let length =
                    range.length < 0 ? chunk.length - range.offset : min(range.length, chunk.length - range.offset)
                guard length <= budget else {
                    throw WOPIHTTPError.badRequest(
                        "The ranges asked for add up to more bytes than the streams hold; ask for each part once.")
                }
                budget -= length
                let part = ContentChunk(id: chunk.id, offset: chunk.offset + range.offset, length: length)
                ranges.append(.init(chunkID: range.chunkID, offset: range.offset, length: length))
                frames.append((.chunkRange(chunk.id, offset: range.offset, length: length), stream.payload(of: part)))
            }
            returned.append(
                .init(streamID: filter.streamID, chunkingScheme: stream.list.scheme, chunkRangesToReturn: ranges))
        }
        var body = try OutgoingFrames(message: GetChunksResponseMessage(contentFilters: returned))
        for (header, payload) in frames { body.append(header, payload) }
        let response = WOPIResponse(status: .ok, headers: [:], body: .stream(body.body(from: storage)))
        return Self.chunkedResponse(response, record: record, version: main.version)
    }

    // MARK: - Shared

    /// The MainContent's chunks and the content record of one version of the file (read again if a write came
    /// between the two reads).
    func consistentStreams(of id: ItemID, in streams: any ContentStreamStore) async throws
        -> (ContentChunkList, ContentStreamRecord)
    {
        for _ in 0..<4 {
            let main = try await mainContentChunks(of: id)
            let record = try await currentContentRecord(of: id, version: main.version, in: streams)
            if record.contentVersion == main.version { return (main, record) }
        }
        throw WOPIHTTPError(.serviceUnavailable, "The file changes too fast to be read; try again.")
    }

    /// The content record of `file` whose MainContent is `version`, stored: a first record (sequence number 1),
    /// or the stored one moved on if another path changed the content since (``ContentStreamRecord/afterContentChange(to:)``).
    func currentContentRecord(of file: ItemID, version: String, in streams: any ContentStreamStore) async throws
        -> ContentStreamRecord
    {
        for _ in 0..<16 {
            let stored = try await streams.record(of: file)
            if let stored, stored.contentVersion == version { return stored }
            let next =
                stored?.afterContentChange(to: version)
                ?? ContentStreamRecord(contentVersion: version, sequenceNumber: 1)
            if try await streams.compareAndSwap(file: file, expectedSequenceNumber: stored?.sequenceNumber, new: next) {
                return next
            }
        }
        throw WOPIHTTPError(.serviceUnavailable, "The file's content streams change too fast; try again.")
    }

    /// Forgets the content streams, content properties and sequence number of a deleted file (with incremental
    /// transfer only). The file is gone already, so a failure is logged, not answered: the record is then left
    /// behind, harmless (file IDs are never reused).
    func forgetContentStreams(of file: ItemID) async {
        guard let stores = chunkedTransferStores else { return }
        do {
            try await stores.contentStreams.removeRecord(of: file)
        } catch {
            logger.warning(
                "The content streams of a deleted file could not be removed",
                metadata: ["file": "\(file)", "error": "\(error)"])
        }
    }

    /// `response` with the chunked-transfer headers: `X-WOPI-SequenceNumber` and `X-WOPI-ItemVersion`.
    static func chunkedResponse(_ response: WOPIResponse, record: ContentStreamRecord, version: String)
        -> WOPIResponse
    {
        var response = response
        response.headers[.wopiSequenceNumber] = String(record.sequenceNumber)
        response.headers[.wopiItemVersion] = version
        if case .stream = response.body { response.headers[.contentType] = "application/octet-stream" }
        return response
    }
}

/// One content stream of a file as a chunked transfer reads it: its chunk list and where its bytes are.
struct ContentStream {
    /// The stream's chunks.
    let list: ContentChunkList
    private let file: ItemID
    /// An alternate stream's bytes; `nil` for MainContent, read from the backend.
    private let bytes: Data?

    /// The stream `streamID` of `file`: MainContent, an alternate in `record`, or an absent alternate (empty).
    init(_ streamID: String, main: ContentChunkList, record: ContentStreamRecord, file: ItemID) async throws {
        self.file = file
        if streamID == StreamSignature.mainContent {
            list = main
            bytes = nil
        } else {
            let data = record.alternateStreams[streamID] ?? Data()
            // A stream the file does not have, or an empty one, is `Zip` with no chunk (Docs/cspp-plus.md's
            // decisions: the validator's DownloadUnexistedStreamShouldReturnEmptyStream).
            list =
                data.isEmpty
                ? ContentChunkList(version: record.contentVersion, isZip: true, chunks: [])
                : try await ContentChunkList(
                    cutting: ByteStream(buffer: ByteBuffer(bytes: data)), version: record.contentVersion)
            bytes = data
        }
    }

    /// Where the bytes of `chunk` (or of a part of it) come from.
    func payload(of chunk: ContentChunk) -> OutgoingFrames.Payload {
        guard let bytes else {
            return .mainContent(file, version: list.version, chunk.offset..<(chunk.offset + chunk.length))
        }
        let start = bytes.startIndex + Int(chunk.offset)
        return .bytes(ByteBuffer(bytes: bytes[start..<(start + Int(chunk.length))]))
    }
}

extension FrameHeader {
    /// A ChunkRange frame's header: the chunk's ID, then the part's offset and length (64-bit) and flags (32-bit,
    /// none), big-endian (Microsoft's "encode-send-data" page).
    static func chunkRange(_ id: ChunkID, offset: Int64, length: Int64) -> FrameHeader {
        var extended = id.bytes
        withUnsafeBytes(of: UInt64(offset).bigEndian) { extended.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(length).bigEndian) { extended.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(0).bigEndian) { extended.append(contentsOf: $0) }
        return FrameHeader(type: .chunkRange, extendedHeader: extended, payloadLength: UInt64(length))
    }
}
