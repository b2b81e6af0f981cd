import Foundation
import HTTPTypes
public import WOPIModels
public import WOPIStorage

extension WOPIClient {
    /// The answer of GetChunkedFile or GetChunks: the host's sequence number, its MessageJSON, and a reader for the
    /// Chunk frames after it (read them to the end, or the connection is not reused).
    public struct ChunkedAnswer<Message> {
        /// `X-WOPI-SequenceNumber`: the version of the file's streams this answer describes.
        public var sequenceNumber: Int64?
        /// The decoded MessageJSON.
        public var message: Message
        /// `X-WOPI-ItemVersion`: the file version this answer describes, when the host sent it.
        public var version: String? = nil
        /// The frames after the message.
        public var frames: FrameReader
    }

    /// GetChunkedFile (`POST …/files/{id}` with `GET_CHUNKED_FILE`): the signatures of the streams asked for and,
    /// streamed after them, the chunks the client does not list as known.
    public func getChunkedFile(
        _ file: WOPIResource, request message: GetChunkedFileRequestMessage
    ) async throws -> ChunkedAnswer<GetChunkedFileResponseMessage> {
        try await chunkedCall("GetChunkedFile", WOPIOverride.getChunkedFile, file, message: message)
    }

    /// GetChunks (`POST …/files/{id}` with `GET_CHUNKS`): parts of chunks by ID, as ChunkRange frames.
    public func getChunks(
        _ file: WOPIResource, request message: GetChunksRequestMessage
    ) async throws -> ChunkedAnswer<GetChunksResponseMessage> {
        try await chunkedCall("GetChunks", WOPIOverride.getChunks, file, message: message)
    }

    /// GetSequenceNumber (`POST …/files/{id}` with `GET_SEQUENCE_NUMBER`): the file's current sequence number.
    public func getSequenceNumber(_ file: WOPIResource) async throws -> Int64 {
        try requireKind(.file, file, "GetSequenceNumber")
        var call = Call("GetSequenceNumber", .post, file)
        call.set(WOPIHeader.override, WOPIOverride.getSequenceNumber)
        let response = try await send(call)
        await Self.discard(response.body)
        guard let number = response.headers[HTTPField.Name(WOPIHeader.sequenceNumber)!].flatMap({ Int64($0) }) else {
            throw WOPIClientError(
                .protocolViolation, "GetSequenceNumber: the host's answer has no X-WOPI-SequenceNumber.",
                status: response.status.code)
        }
        return number
    }

    /// How PutChunkedFile holds the file: a WOPI lock or a coauth lock.
    public enum ChunkedPutLock: Sendable, Hashable {
        /// A WOPI lock ID (`X-WOPI-Lock`).
        case wopi(String)
        /// A coauth lock ID (`X-WOPI-CoauthLockId`).
        case coauth(String)
        /// None: only for a zero-byte file.
        case none
    }

    /// PutChunkedFile (`POST …/files/{id}/contents` with `PUT_CHUNKED_FILE`): the new signatures and, streamed
    /// after them, the chunks the host lacks (`body` from ``FrameBody/make(message:chunks:from:)``); returns the new
    /// sequence number.
    ///
    /// - Parameter sequenceNumber: the number the file had when this client read it; the host refuses the put with
    ///   ``WOPIClientError/Code/sequenceConflict`` when the file changed since. Never retried here: a retry with the
    ///   current number would overwrite the other client's save.
    @discardableResult
    public func putChunkedFile(
        _ file: WOPIResource, body: ByteStream, lock: ChunkedPutLock, sequenceNumber: Int64?,
        progress: TransferProgress? = nil
    ) async throws -> Int64? {
        try await putChunkedFileAnswer(
            file, body: body, lock: lock, sequenceNumber: sequenceNumber, progress: progress
        ).sequenceNumber
    }

    /// ``putChunkedFile(_:body:lock:sequenceNumber:progress:)`` returning the new sequence number and the new
    /// version (`X-WOPI-ItemVersion`), each when the host sent it.
    func putChunkedFileAnswer(
        _ file: WOPIResource, body: ByteStream, lock: ChunkedPutLock, sequenceNumber: Int64?,
        progress: TransferProgress?
    ) async throws -> (sequenceNumber: Int64?, version: String?) {
        try requireKind(.file, file, "PutChunkedFile")
        var call = Call("PutChunkedFile", .post, file, suffix: "contents")
        call.isTransfer = true
        call.set(WOPIHeader.override, WOPIOverride.putChunkedFile)
        switch lock {
        case .wopi(let id): call.set(WOPIHeader.lock, id)
        case .coauth(let id): call.set(WOPIHeader.coauthLockID, id)
        case .none: break
        }
        if let sequenceNumber { call.set(WOPIHeader.sequenceNumber, String(sequenceNumber)) }
        call.headers[.contentType] = "application/octet-stream"
        call.body = body.reportingProgress(progress)
        let response = try await send(call)
        await Self.discard(response.body)
        return (
            response.headers[HTTPField.Name(WOPIHeader.sequenceNumber)!].flatMap { Int64($0) },
            response.headers[HTTPField.Name(WOPIHeader.itemVersion)!]
        )
    }

    private func chunkedCall<Request: Encodable, Answer: Decodable>(
        _ name: String, _ override: String, _ file: WOPIResource, message: Request
    ) async throws -> ChunkedAnswer<Answer> {
        try requireKind(.file, file, name)
        var call = Call(name, .post, file)
        call.isTransfer = true
        call.set(WOPIHeader.override, override)
        call.headers[.contentType] = "application/octet-stream"
        call.body = FrameBody.make(message: try JSONEncoder().encode(message))
        let response = try await send(call)
        let frames = FrameReader(response.body)
        let answer: Answer
        do {
            answer = try await frames.message(Answer.self)
        } catch let error as WOPIClientError {
            throw error
        } catch {
            throw WOPIClientError(
                .protocolViolation, "\(name): the host's MessageJSON is not what the protocol describes.",
                status: response.status.code, underlying: error)
        }
        return ChunkedAnswer(
            sequenceNumber: response.headers[HTTPField.Name(WOPIHeader.sequenceNumber)!].flatMap { Int64($0) },
            message: answer, version: response.headers[HTTPField.Name(WOPIHeader.itemVersion)!], frames: frames)
    }
}
