public import Foundation
import NIOCore
public import WOPIChunking
public import WOPIStorage

/// Builds and reads the bodies of CSPP Plus incremental transfer (Microsoft's "encode-send-data" page): a
/// MessageJSON frame, Chunk frames, an EndFrame.
public enum FrameBody {
    /// A request body: `message` as the MessageJSON frame, then each of `chunks` read from `file` as a Chunk frame,
    /// then the EndFrame; streamed in 256 KiB pieces, with its length known up front.
    public static func make(message: Data, chunks: [LocalChunk] = [], from file: ChunkFile? = nil) -> ByteStream {
        let headerLength = Int64(FrameHeader.fixedLength)
        let length =
            headerLength + Int64(message.count) + headerLength
            + chunks.reduce(0) { $0 + headerLength + Int64(ChunkID.length) + $1.length }
        return ByteStream(knownLength: length) {
            var pending: [ByteBuffer] = [
                ByteBuffer(bytes: FrameHeader.messageJSON(length: UInt64(message.count)).encoded),
                ByteBuffer(bytes: message),
            ]
            var remaining = chunks[...]
            var current: (chunk: LocalChunk, sent: Int64)?
            var ended = false
            return {
                while true {
                    if !pending.isEmpty { return pending.removeFirst() }
                    if let (chunk, sent) = current, sent < chunk.length {
                        let count = min(Int64(ByteStream.preferredChunkSize), chunk.length - sent)
                        var buffer = ByteBuffer()
                        try file?.read(offset: chunk.offset + sent, length: count) { buffer.writeBytes($0) }
                        current = (chunk, sent + count)
                        return buffer
                    }
                    if let next = remaining.popFirst() {
                        current = (next, 0)
                        pending.append(
                            ByteBuffer(bytes: FrameHeader.chunk(next.id, length: UInt64(next.length)).encoded))
                        continue
                    }
                    if ended { return nil }
                    ended = true
                    return ByteBuffer(bytes: FrameHeader.end.encoded)
                }
            }
        }
    }
}

/// Reads a frame body as it arrives: ``message(_:)`` decodes the MessageJSON frame, ``nextEvent()`` hands on the
/// frames after it, payload pieces as they come. Memory stays flat in the size of the body (only the MessageJSON
/// is collected, up to a limit).
public final class FrameReader {
    private var iterator: ByteStream.AsyncIterator
    private var decoder = FrameDecoder()
    private var events: [FrameEvent] = []
    private var finished = false
    /// The body bytes read so far.
    public private(set) var bytesRead: Int64 = 0

    /// A reader of `body`.
    public init(_ body: ByteStream) {
        self.iterator = body.makeAsyncIterator()
    }

    /// The next frame event, or `nil` after the EndFrame.
    public func nextEvent() async throws -> FrameEvent? {
        while events.isEmpty {
            if finished { return nil }
            guard let buffer = try await iterator.next() else {
                try decoder.finish()
                finished = true
                return nil
            }
            bytesRead += Int64(buffer.readableBytes)
            events = try decoder.decode(buffer)
        }
        let event = events.removeFirst()
        if case .end = event { finished = true }
        return event
    }

    /// Reads the MessageJSON frame, which must come first, and decodes it as `T`.
    public func message<T: Decodable>(_ type: T.Type, limit: Int = 64 * 1024 * 1024) async throws -> T {
        guard case .header(let header)? = try await nextEvent(), header.type == .messageJSON else {
            throw WOPIClientError(
                .protocolViolation,
                "The host's answer does not start with the MessageJSON frame the protocol describes.")
        }
        var json = Data()
        loop: while let event = try await nextEvent() {
            switch event {
            case .payload(let part):
                json.append(contentsOf: part.readableBytesView)
                if json.count > limit {
                    throw WOPIClientError(
                        .protocolViolation,
                        "The host's answer does not start with the MessageJSON frame the protocol describes.")
                }
            case .frameEnd:
                break loop
            default:
                throw WOPIClientError(
                    .protocolViolation,
                    "The host's answer does not start with the MessageJSON frame the protocol describes.")
            }
        }
        return try JSONDecoder().decode(T.self, from: json)
    }
}
