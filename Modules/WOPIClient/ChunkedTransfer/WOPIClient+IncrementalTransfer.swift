public import Foundation
import Logging
import NIOCore
import WOPIChunking
import WOPIModels
import WOPIStorage

/// What a download or an upload moved: for "sent 41 KiB of 18.2 MiB" and `--json`.
public struct TransferFigures: Codable, Sendable, Hashable {
    /// The file's size.
    public var fileBytes: Int64
    /// The body bytes that crossed the wire for it (frames and JSON included; HTTP headers not).
    public var wireBytes: Int64
    /// The file's chunks (0 for a whole-file transfer).
    public var chunks: Int
    /// The chunks that crossed the wire.
    public var chunksTransferred: Int
    /// `true` when incremental transfer was used; `false` for GetFile/PutFile.
    public var incremental: Bool
    /// The host's sequence number of the file afterwards, when it keeps one.
    public var sequenceNumber: Int64?
    /// The host's version of the file afterwards (`X-WOPI-ItemVersion`), when it sent one.
    public var version: String? = nil
}

extension WOPIClient {
    /// Which sequence number an upload names as the one it replaces.
    enum SequenceBasis {
        /// The one this client last transferred (the cache's manifest), else the current one: an upload based on
        /// an older read fails with ``WOPIClientError/Code/sequenceConflict``.
        case lastTransferred
        /// The current one: for a caller that checked, under a lock, that the file is still the version it read.
        case current
    }
}

extension WOPIClient {
    /// Whether `info` advertises incremental transfer (GetChunkedFile and PutChunkedFile).
    static func supportsIncrementalTransfer(_ info: CheckFileInfo) -> Bool {
        info.supportsChunkedFileTransfer == true
    }

    /// Downloads `file` to `destination` (replaced atomically), fetching only the chunks `cache` does not hold
    /// when the host advertises incremental transfer; else, or without a cache, with GetFile.
    ///
    /// Every chunk is checked against its ID; one missing from the cache by the time the file is put together
    /// (evicted, or corrupt) is fetched again, and after three tries the file is downloaded whole.
    public func download(
        _ file: WOPIResource, to destination: URL, cache: ChunkCache?, progress: TransferProgress? = nil
    ) async throws -> TransferFigures {
        try await download(file, to: destination, cache: cache, info: checkFileInfo(file), progress: progress)
    }

    /// ``download(_:to:cache:progress:)`` for a caller that has the file's CheckFileInfo already.
    func download(
        _ file: WOPIResource, to destination: URL, cache: ChunkCache?, info: CheckFileInfo,
        progress: TransferProgress?
    ) async throws -> TransferFigures {
        if let cache, Self.supportsIncrementalTransfer(info) {
            for _ in 0..<3 {
                if let figures = try await downloadIncrementally(
                    file, to: destination, cache: cache, progress: progress)
                {
                    return figures
                }
            }
            logger.warning("Chunks kept going missing from the cache; downloading the file whole")
        }
        let download = try await getFile(file, progress: progress)
        let written = try await download.body.write(toFileAt: destination)
        cache?.removeManifest(for: file.wopiSrc.absoluteString)
        return TransferFigures(
            fileBytes: written, wireBytes: written, chunks: 0, chunksTransferred: 0, incremental: false,
            sequenceNumber: nil, version: download.version)
    }

    /// One GetChunkedFile listing the chunks the cache holds as known; `nil` when a chunk went missing before the
    /// file was put together.
    private func downloadIncrementally(
        _ file: WOPIResource, to destination: URL, cache: ChunkCache, progress: TransferProgress?
    ) async throws -> TransferFigures? {
        let key = file.wopiSrc.absoluteString
        let known = cache.known(among: cache.manifest(for: key)?.chunkIDs ?? [])
        let request = GetChunkedFileRequestMessage(contentFilters: [
            .init(
                streamID: StreamSignature.mainContent, chunkingScheme: .zip, chunksToReturn: .all,
                alreadyKnownChunks: known.map(\.base64))
        ])
        let answer = try await getChunkedFile(file, request: request)
        let received = try await Self.receiveChunks(answer.frames, into: cache, progress: progress)
        guard let signature = answer.message.signatures.first(where: { $0.streamID == StreamSignature.mainContent })
        else {
            throw WOPIClientError(.protocolViolation, "GetChunkedFile: the answer has no MainContent signature.")
        }
        guard let length = try Self.assemble(signature, from: cache, to: destination) else { return nil }
        try cache.saveManifest(
            ChunkManifest(
                sequenceNumber: answer.sequenceNumber, isZip: signature.chunkingScheme == .zip,
                chunks: signature.chunkSignatures.map { .init(id: $0.chunkID, length: Int64($0.length)) }),
            for: key)
        return TransferFigures(
            fileBytes: length, wireBytes: answer.frames.bytesRead, chunks: signature.chunkSignatures.count,
            chunksTransferred: received, incremental: true, sequenceNumber: answer.sequenceNumber,
            version: answer.version)
    }

    /// Reads the Chunk frames after a MessageJSON into `cache` (each checked against its ID); returns how many.
    /// `progress` hears the body bytes read so far after each piece.
    static func receiveChunks(
        _ frames: FrameReader, into cache: ChunkCache, progress: TransferProgress? = nil
    ) async throws -> Int {
        var writer: (ChunkWriter, ChunkID)?
        var count = 0
        while let event = try await frames.nextEvent() {
            switch event {
            case .header(let header):
                if header.type == .endFrame { continue }
                guard let id = header.chunkID else {
                    throw WOPIClientError(
                        .protocolViolation,
                        "The host sent a frame that is not a Chunk frame (type \(header.type), \(header.extendedHeader.count)-byte extended header)."
                    )
                }
                writer = (try cache.writer(), id)
            case .payload(let part):
                try part.withUnsafeReadableBytes { raw in try writer?.0.write(raw) }
                progress?(frames.bytesRead, nil)
            case .frameEnd:
                if let (chunk, id) = writer {
                    try chunk.commit(as: id)
                    count += 1
                }
                writer = nil
            case .end:
                break
            }
        }
        return count
    }

    /// Writes the chunks of `signature`, in order, from `cache` to a temporary file beside `destination`, then
    /// renames it over `destination`; returns the length, or `nil` (and writes nothing) when a chunk is missing.
    static func assemble(_ signature: StreamSignature, from cache: ChunkCache, to destination: URL) throws -> Int64? {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw WOPIClientError(.transport, "Cannot create \(temporary.path); check the folder is writable.")
        }
        let output = try FileHandle(forWritingTo: temporary)
        var length: Int64 = 0
        var complete = true
        for entry in signature.chunkSignatures {
            guard let id = ChunkID(base64: entry.chunkID), let chunk = cache.open(id) else {
                complete = false
                break
            }
            defer { chunk.close() }
            let chunkLength = try chunk.length()
            try chunk.read(offset: 0, length: chunkLength) { try output.write(contentsOf: Data($0)) }
            length += chunkLength
        }
        try output.close()
        guard complete else {
            try? FileManager.default.removeItem(at: temporary)
            return nil
        }
        guard rename(temporary.path, destination.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw WOPIClientError(.transport, "Cannot replace \(destination.path); check the folder is writable.")
        }
        return length
    }

    /// Uploads `source` to `file` under `lock`, sending only the chunks the host's current content lacks when the
    /// host advertises incremental transfer (then the chunks are kept in `cache` for later downloads); else, or
    /// without a cache, with PutFile (which needs a WOPI lock or a zero-byte file).
    ///
    /// The put names the sequence number the file had when this client last transferred it (the cache's
    /// manifest), or the current one when it never did.
    ///
    /// - Throws: ``WOPIClientError/Code/sequenceConflict`` when the file changed on the host since this client
    ///   last read it: nothing was written; download, merge, and upload again.
    public func upload(
        _ source: URL, to file: WOPIResource, lock: ChunkedPutLock, cache: ChunkCache?,
        progress: TransferProgress? = nil
    ) async throws -> TransferFigures {
        try await upload(
            source, to: file, lock: lock, cache: cache, info: checkFileInfo(file), basis: .lastTransferred,
            progress: progress)
    }

    /// ``upload(_:to:lock:cache:progress:)`` for a caller that has the file's CheckFileInfo already, naming the
    /// sequence number `basis` says.
    func upload(
        _ source: URL, to file: WOPIResource, lock: ChunkedPutLock, cache: ChunkCache?, info: CheckFileInfo,
        basis: SequenceBasis, progress: TransferProgress?
    ) async throws -> TransferFigures {
        guard let cache, Self.supportsIncrementalTransfer(info) else {
            let content = try ByteStream.contentsOfFile(at: source)
            let lockID: String? = if case .wopi(let id) = lock { id } else { nil }
            let version = try await putFile(file, content: content, lock: lockID, progress: progress)
            cache?.removeManifest(for: file.wopiSrc.absoluteString)
            let length = content.knownLength ?? 0
            return TransferFigures(
                fileBytes: length, wireBytes: length, chunks: 0, chunksTransferred: 0, incremental: false,
                sequenceNumber: nil, version: version)
        }
        guard let local = ChunkFile(readingAt: source.path) else {
            throw WOPIClientError(.transport, "Cannot read \(source.path).")
        }
        defer { local.close() }
        let chunks = try LocalChunks(of: local)
        let key = file.wopiSrc.absoluteString
        // The host's current chunks, and its sequence number when this client never read the file.
        let current = try await getChunkedFile(
            file,
            request: GetChunkedFileRequestMessage(contentFilters: [
                .init(streamID: StreamSignature.mainContent, chunkingScheme: .zip, chunksToReturn: .none)
            ]))
        _ = try await Self.receiveChunks(current.frames, into: cache)
        let hostChunks = Set(
            current.message.signatures.first { $0.streamID == StreamSignature.mainContent }?.chunkSignatures
                .map(\.chunkID) ?? [])
        var seen = Set<ChunkID>()
        let missing = chunks.chunks.filter { !hostChunks.contains($0.id.base64) && seen.insert($0.id).inserted }
        let signature = StreamSignature(
            streamID: StreamSignature.mainContent, chunkingScheme: chunks.isZip ? .zip : .fullFile,
            chunkSignatures: chunks.chunks.map { ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.length)) })
        let message = try JSONEncoder().encode(PutChunkedFileRequestMessage(signatures: [signature]))
        let body = FrameBody.make(message: message, chunks: missing, from: local)
        let expected =
            switch basis {
            case .lastTransferred: cache.manifest(for: key)?.sequenceNumber ?? current.sequenceNumber
            case .current: current.sequenceNumber
            }
        let (sequenceNumber, version) = try await putChunkedFileAnswer(
            file, body: body, lock: lock, sequenceNumber: expected, progress: progress)
        for chunk in chunks.chunks {
            try? cache.store(chunk.id, from: local, offset: chunk.offset, length: chunk.length)
        }
        try cache.saveManifest(
            ChunkManifest(
                sequenceNumber: sequenceNumber, isZip: chunks.isZip,
                chunks: chunks.chunks.map { .init(id: $0.id.base64, length: $0.length) }),
            for: key)
        return TransferFigures(
            fileBytes: chunks.length, wireBytes: current.frames.bytesRead + (body.knownLength ?? 0),
            chunks: chunks.chunks.count, chunksTransferred: missing.count, incremental: true,
            sequenceNumber: sequenceNumber, version: version)
    }
}
