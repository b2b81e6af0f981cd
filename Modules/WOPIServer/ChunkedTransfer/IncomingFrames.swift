import Foundation
import HTTPTypes
import NIOCore
import WOPIChunking
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// A chunked-transfer request body read frame by frame as it arrives: its MessageJSON decoded, and the Chunk
/// frames that follow it spooled to a private temporary file (disk, not memory), each checked against its ID.
struct IncomingFrames<Message: Decodable> {
    /// The request's MessageJSON.
    let message: Message
    /// The chunks sent, in the spool.
    let spool: SpoolFile
    /// Where each sent chunk is in ``spool``.
    private(set) var chunks: [ChunkID: Range<Int64>]
    /// The end of the spooled chunks: the spool is free from here.
    private(set) var spooledLength: Int64

    /// The largest MessageJSON accepted.
    static var maximumMessageLength: UInt64 { 16 * 1024 * 1024 }

    /// Reads `body`; a body that is no valid frame stream, or whose MessageJSON is not a `Message`, is a `400`.
    static func read(_ body: ByteStream, acceptsChunks: Bool) async throws -> IncomingFrames {
        var decoder = FrameDecoder()
        var reader = Reader()
        let spool = try SpoolFile()
        try await reader.read(body, with: &decoder, spool: spool, acceptsChunks: acceptsChunks, named: "The body")
        do {
            try decoder.finish()
        } catch {
            throw WOPIHTTPError.badRequest("The body is no valid frame stream: \(error.message)")
        }
        guard let json = reader.message else { throw WOPIHTTPError.badRequest("The body has no MessageJSON frame.") }
        let message: Message
        do {
            message = try WOPIJSON.decoder.decode(Message.self, from: Data(json.readableBytesView))
        } catch {
            throw WOPIHTTPError.badRequest("The MessageJSON frame is not a valid \(Message.self): \(error)")
        }
        return IncomingFrames(message: message, spool: spool, chunks: reader.chunks, spooledLength: reader.spooled)
    }

    /// Adds the chunks of an upload session's byte stream (Chunk frames only: no MessageJSON, no EndFrame),
    /// spooled after the body's and checked the same way; a stream that is not whole Chunk frames is a `400`.
    mutating func appendChunks(fromUploadSession stream: ByteStream) async throws {
        var decoder = FrameDecoder()
        var reader = Reader(spooled: spooledLength, expectsMessage: false)
        try await reader.read(stream, with: &decoder, spool: spool, acceptsChunks: true, named: "The upload session")
        guard decoder.isBetweenFrames else {
            throw WOPIHTTPError.badRequest(
                "The upload session ends inside a frame; upload the rest of it, then commit again.")
        }
        for (id, range) in reader.chunks where chunks[id] == nil { chunks[id] = range }
        spooledLength = reader.spooled
    }

    /// The state of a read.
    private struct Reader {
        private enum Frame {
            case message(ByteBuffer)
            case chunk(ChunkID, start: Int64, hasher: SpookyHash)
            case end
        }

        var message: ByteBuffer?
        var chunks: [ChunkID: Range<Int64>] = [:]
        var spooled: Int64 = 0
        private var frame: Frame?
        private var frames = 0
        /// Whether the stream starts with a MessageJSON and may end with an EndFrame (a request body), or holds
        /// Chunk frames only (an upload session).
        private let expectsMessage: Bool

        init(spooled: Int64 = 0, expectsMessage: Bool = true) {
            self.spooled = spooled
            self.expectsMessage = expectsMessage
        }

        /// Takes every frame event of `stream` as it arrives; bytes that are no frames are a `400` naming `what`.
        mutating func read(
            _ stream: ByteStream, with decoder: inout FrameDecoder, spool: SpoolFile, acceptsChunks: Bool,
            named what: String
        ) async throws {
            for try await buffer in stream {
                let events: [FrameEvent]
                do {
                    events = try decoder.decode(buffer)
                } catch {
                    throw WOPIHTTPError.badRequest("\(what) is no valid frame stream: \(error.message)")
                }
                for event in events { try await take(event, spool: spool, acceptsChunks: acceptsChunks) }
            }
        }

        mutating func take(_ event: FrameEvent, spool: SpoolFile, acceptsChunks: Bool) async throws {
            switch (event, frame) {
            case (.header(let header), _):
                frames += 1
                switch header.type {
                case .messageJSON where frames == 1 && expectsMessage:
                    guard header.payloadLength <= IncomingFrames.maximumMessageLength else {
                        throw WOPIHTTPError(.contentTooLarge, "The MessageJSON frame is over 16 MiB.")
                    }
                    frame = .message(ByteBuffer())
                case _ where frames == 1 && expectsMessage:
                    throw WOPIHTTPError.badRequest("The first frame must be the MessageJSON.")
                case .chunk where acceptsChunks:
                    guard let id = header.chunkID else { throw WOPIHTTPError.badRequest("A Chunk frame has no ID.") }
                    frame = .chunk(id, start: spooled, hasher: SpookyHash())
                case .endFrame where expectsMessage:
                    frame = .end
                default:
                    throw WOPIHTTPError.badRequest("A \(header.type) frame is not accepted here.")
                }
            case (.payload(let part), .message(var json)?):
                json.writeImmutableBuffer(part)
                frame = .message(json)
            case (.payload(let part), .chunk(let id, let start, var hasher)?):
                part.withUnsafeReadableBytes { hasher.update($0) }
                try await spool.write(part, at: spooled)
                spooled += Int64(part.readableBytes)
                frame = .chunk(id, start: start, hasher: hasher)
            case (.frameEnd, .message(let json)?):
                message = json
                frame = nil
            case (.frameEnd, .chunk(let id, let start, let hasher)?):
                guard hasher.finalize() == id else {
                    throw WOPIHTTPError.badRequest("The bytes of chunk \(id) do not hash to its ChunkId.")
                }
                if chunks[id] == nil { chunks[id] = start..<spooled }
                frame = nil
            case (.end, _), (.frameEnd, _):
                frame = nil
            case (.payload, _):
                throw WOPIHTTPError.badRequest("A frame payload came where none was expected.")
            }
        }
    }
}
