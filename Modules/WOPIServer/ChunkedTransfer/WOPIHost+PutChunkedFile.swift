import Foundation
import HTTPTypes
import Logging
import Metrics
import NIOCore
import WOPIChunking
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// The most bytes of alternate streams one PutChunkedFile stores (alternates are kept whole in the content
    /// record).
    static var maximumAlternateStreamSize: Int { 64 * 1024 * 1024 }

    /// PutChunkedFile: the lock rules of PutFile (with `X-WOPI-CoauthLockId`), the client's sequence number
    /// checked (`412` with the current one), the sent chunks spooled (with those of the upload session it commits),
    /// every new stream composed from them and the chunks the host has, and its composed size checked against
    /// ``WOPIHostConfiguration/maximumFileSize`` (`413`), before anything is written; then MainContent written
    /// through the backend's atomic `writeFile`, then the content record; the committed upload session is removed
    /// last.
    func putChunkedFile(
        _ id: ItemID, streams: any ContentStreamStore, sessions: any UploadSessionStore, request: WOPIRequest,
        context: RequestContext
    ) async throws -> WOPIResponse {
        let body = try limited(request.body)
        let file = try await context.file(id, in: storage)
        try await applyLockRules(
            .putFile(request.header(WOPIHeader.lock), currentSize: file.size), on: id, request: request)
        let record = try await currentContentRecord(of: id, version: file.version, in: streams)
        try Self.checkSequenceNumber(request, current: record)
        try await check(.putFile(file, ClientSaveHeaders(request).details), context: context)
        var upload = try await IncomingFrames<PutChunkedFileRequestMessage>.read(body, acceptsChunks: true)
        let token = upload.message.uploadSessionTokenToCommit
        let session =
            token.isEmpty ? nil : try await uploadSession(token, of: id, in: sessions, context: context, now: now())
        if let session { try await upload.appendChunks(fromUploadSession: sessions.bytes(of: session)) }
        let main = try await mainContentChunks(of: id)
        guard main.version == file.version else { throw try await sequenceConflict(id, streams: streams) }
        var sources = ChunkSources(upload: upload, main: main)
        for (streamID, data) in record.alternateStreams {
            let stream = try await ContentStream(streamID, main: main, record: record, file: id)
            sources.add(stream, bytes: data)
        }
        // Every stream is resolved and composed before anything is written, while the chunks it names from the
        // host are still those of `file.version`: a refused or failed PutChunkedFile changes nothing.
        var composedMain: Range<Int64>?
        var alternates: [String: Data] = [:]
        var alternateBytes: Int64 = 0
        for signature in upload.message.signatures {
            guard signature.streamID != StreamSignature.mainContent || composedMain == nil,
                alternates[signature.streamID] == nil
            else {
                throw WOPIHTTPError.badRequest("The stream \(signature.streamID) is signed twice; sign it once.")
            }
            let parts = try sources.resolve(signature)
            // What is stored, not what is sent, counts against the limits: a few sent bytes may name a known
            // chunk many times.
            let length = ChunkSources.length(of: parts)
            if signature.streamID == StreamSignature.mainContent {
                let limit = configuration.maximumFileSize ?? Int64.max
                guard let length, length <= limit else {
                    throw WOPIHTTPError(
                        .contentTooLarge,
                        "The file this PutChunkedFile composes passes the \(limit) bytes this "
                            + "host accepts.")
                }
                composedMain = try await compose(parts, of: id, version: file.version, into: upload)
            } else {
                guard let length, let total = RequestNumber.sum(alternateBytes, length),
                    total <= Int64(Self.maximumAlternateStreamSize)
                else {
                    throw WOPIHTTPError(
                        .contentTooLarge, "The alternate streams of one PutChunkedFile pass 64 MiB together.")
                }
                alternateBytes = total
                alternates[signature.streamID] = try await alternate(
                    parts, of: id, version: file.version, upload: upload)
            }
        }
        var written = file
        if let composedMain {
            do {
                written = try await storage.writeFile(
                    id, content: upload.spool.stream(composedMain), expectedVersion: file.version)
            } catch let error as StorageError where error.code == .versionMismatch {
                throw try await sequenceConflict(id, streams: streams)
            }
            metrics.putFileBytes.increment(by: written.size)
        }
        let stored = try await storeRecord(
            of: id, in: streams, from: file.version, to: written.version, properties: upload.message.contentProperties,
            alternates: alternates)
        try await forgetTemplate(of: id)
        if let session { await removeCommitted(session, from: sessions) }
        logger.info(
            "PutChunkedFile",
            metadata: [
                "file": "\(id)", "size": "\(written.size)", "version": "\(written.version)",
                "sent": "\(upload.spooledLength)", "sequence": "\(stored.sequenceNumber)",
                "uploadSession": "\(session != nil)",
            ])
        return Self.chunkedResponse(WOPIResponse(status: .ok), record: stored, version: written.version)
    }

    /// Removes an upload session once its put succeeded; a failure is logged (expiry removes it later).
    private func removeCommitted(_ session: UploadSession, from sessions: any UploadSessionStore) async {
        do {
            try await sessions.removeSession(session.token)
        } catch {
            logger.warning(
                "A committed upload session could not be removed; it expires", metadata: ["error": "\(error)"])
        }
    }

    /// Refuses a PutChunkedFile whose `X-WOPI-SequenceNumber` is not the file's current one.
    private static func checkSequenceNumber(_ request: WOPIRequest, current: ContentStreamRecord) throws {
        guard let sent = request.header(WOPIHeader.sequenceNumber) else {
            throw WOPIHTTPError.badRequest("PutChunkedFile needs X-WOPI-SequenceNumber (from GetChunkedFile).")
        }
        guard RequestNumber.nonNegative(sent) == current.sequenceNumber else {
            throw sequenceMismatch(current.sequenceNumber)
        }
    }

    /// The `412` of a stale sequence number, carrying the current one.
    private static func sequenceMismatch(_ current: Int64) -> WOPIHTTPError {
        var error = WOPIHTTPError(
            .preconditionFailed,
            "The file changed since the client read it (sequence number \(current)); read it again.")
        error.headers[.wopiSequenceNumber] = String(current)
        return error
    }

    /// The `412` of a write that found the content changed under it.
    private func sequenceConflict(_ id: ItemID, streams: any ContentStreamStore) async throws -> WOPIHTTPError {
        let file = try await storage.item(id)
        guard case .file(let metadata) = file else { return WOPIHTTPError.notFound("No item has this ID.") }
        return Self.sequenceMismatch(
            try await currentContentRecord(of: id, version: metadata.version, in: streams).sequenceNumber)
    }

    /// Writes the new MainContent into the spool, after the sent chunks, and returns where it is there.
    private func compose(
        _ parts: [ChunkSources.Part], of id: ItemID, version: String,
        into upload: IncomingFrames<PutChunkedFileRequestMessage>
    )
        async throws -> Range<Int64>
    {
        let start = upload.spooledLength
        var end = start
        for part in parts {
            for try await buffer in try await bytes(of: part, file: id, version: version, spool: upload.spool) {
                try await upload.spool.write(buffer, at: end)
                end += Int64(buffer.readableBytes)
            }
        }
        return start..<end
    }

    /// The bytes of a new alternate stream.
    private func alternate(
        _ parts: [ChunkSources.Part], of id: ItemID, version: String,
        upload: IncomingFrames<PutChunkedFileRequestMessage>
    ) async throws -> Data {
        var data = Data()
        for part in parts {
            for try await buffer in try await bytes(of: part, file: id, version: version, spool: upload.spool) {
                data.append(contentsOf: buffer.readableBytesView)
            }
        }
        return data
    }

    private func bytes(of part: ChunkSources.Part, file id: ItemID, version: String, spool: SpoolFile) async throws
        -> ByteStream
    {
        switch part {
        case .spooled(let range):
            return spool.stream(range)
        case .bytes(let data):
            return ByteStream(buffer: ByteBuffer(bytes: data))
        case .mainContent(let range):
            let content = try await storage.readFile(id, range: range)
            guard content.metadata.version == version else {
                throw StorageError(.versionMismatch, "The file changed while its chunks were read.")
            }
            return content.body
        }
    }

    /// Stores the record after a PutChunkedFile that took the MainContent from `oldVersion` to `newVersion` (the
    /// same when only alternates were sent): properties merged by name, the alternates sent replaced, the
    /// sequence number one further.
    private func storeRecord(
        of id: ItemID, in streams: any ContentStreamStore, from oldVersion: String, to newVersion: String,
        properties: [ContentProperty], alternates: [String: Data]
    ) async throws -> ContentStreamRecord {
        for _ in 0..<16 {
            let stored = try await streams.record(of: id)
            var next = stored ?? ContentStreamRecord(contentVersion: newVersion, sequenceNumber: 0)
            if next.contentVersion != oldVersion, next.contentVersion != newVersion {
                next = next.afterContentChange(to: newVersion)  // another path wrote in between
            }
            if newVersion != oldVersion { next.properties.removeAll { $0.retention == .deleteOnContentChange } }
            for property in properties {
                if let index = next.properties.firstIndex(where: { $0.name == property.name }) {
                    next.properties[index] = property
                } else {
                    next.properties.append(property)
                }
            }
            next.alternateStreams.merge(alternates) { _, new in new }
            next.contentVersion = newVersion
            next.sequenceNumber = (stored?.sequenceNumber ?? 0) + 1
            if try await streams.compareAndSwap(file: id, expectedSequenceNumber: stored?.sequenceNumber, new: next) {
                return next
            }
        }
        throw WOPIHTTPError(.serviceUnavailable, "The file's content streams change too fast; try again.")
    }
}

/// Where each chunk a PutChunkedFile names can be found: sent in the request, or already on the host.
struct ChunkSources {
    /// Where one chunk's bytes are.
    enum Part {
        case spooled(Range<Int64>)
        case mainContent(Range<Int64>)
        case bytes(Data)

        /// The part's length in bytes.
        var length: Int64 {
            switch self {
            case .spooled(let range), .mainContent(let range): range.upperBound - range.lowerBound
            case .bytes(let data): Int64(data.count)
            }
        }
    }

    /// The length of a stream made of `parts`, or `nil` where it passes `Int64.max`.
    static func length(of parts: [Part]) -> Int64? { RequestNumber.sum(parts.lazy.map(\.length)) }

    private var known: [ChunkID: Part] = [:]

    init(upload: IncomingFrames<PutChunkedFileRequestMessage>, main: ContentChunkList) {
        for chunk in main.chunks where known[chunk.id] == nil {
            known[chunk.id] = .mainContent(chunk.offset..<(chunk.offset + chunk.length))
        }
        for (id, range) in upload.chunks { known[id] = .spooled(range) }
    }

    /// Adds the chunks of an alternate stream the host has.
    mutating func add(_ stream: ContentStream, bytes: Data) {
        for chunk in stream.list.chunks where known[chunk.id] == nil {
            let start = bytes.startIndex + Int(chunk.offset)
            known[chunk.id] = .bytes(bytes[start..<(start + Int(chunk.length))])
        }
    }

    /// The parts of a new stream, in order; a `400` when a chunk is neither sent nor on the host, or its length is
    /// not the one signed.
    func resolve(_ signature: StreamSignature) throws -> [Part] {
        try signature.chunkSignatures.map { chunk in
            guard let id = ChunkID(base64: chunk.chunkID) else {
                throw WOPIHTTPError.badRequest("\(chunk.chunkID) is not a ChunkId (base64 of 16 bytes).")
            }
            guard let part = known[id] else {
                throw WOPIHTTPError.badRequest("Chunk \(chunk.chunkID) is neither in the request nor on the host.")
            }
            guard UInt64(part.length) == chunk.length else {
                throw WOPIHTTPError.badRequest("Chunk \(chunk.chunkID) is \(part.length) bytes, not \(chunk.length).")
            }
            return part
        }
    }
}
