import Foundation
import NIOCore
import WOPIChunking
import WOPIModels
import WOPIStorage

/// The frames of a chunked-transfer response body, described before any byte is sent: a MessageJSON, then Chunk
/// or ChunkRange frames whose payloads are read only as the body is sent, then the EndFrame.
struct OutgoingFrames {
    /// Where a payload's bytes come from.
    enum Payload: Sendable {
        /// Bytes at hand (the MessageJSON, an alternate stream's chunk).
        case bytes(ByteBuffer)
        /// A range of a file's MainContent, which must still be `version` when it is read.
        case mainContent(ItemID, version: String, Range<Int64>)
    }

    private var parts: [Payload] = []
    private var length: Int64 = 0

    /// Frames starting with a MessageJSON of `message`.
    init(message: some Encodable) throws {
        let json = try WOPIJSON.encoder.encode(message)
        append(.messageJSON(length: UInt64(json.count)), .bytes(ByteBuffer(bytes: json)))
    }

    /// Adds a frame.
    mutating func append(_ header: FrameHeader, _ payload: Payload) {
        parts.append(.bytes(ByteBuffer(bytes: header.encoded)))
        parts.append(payload)
        length += Int64(FrameHeader.fixedLength + header.extendedHeader.count) + Int64(header.payloadLength)
    }

    /// The body: these frames and the EndFrame, each MainContent range read from `storage` as it is sent.
    func body(from storage: any StorageBackend) -> ByteStream {
        let parts = parts + [.bytes(ByteBuffer(bytes: FrameHeader.end.encoded))]
        return ByteStream(knownLength: length + Int64(FrameHeader.fixedLength)) {
            var index = 0
            var reading: ByteStream.AsyncIterator?
            return {
                while true {
                    if var iterator = reading {
                        if let buffer = try await iterator.next() {
                            reading = iterator
                            return buffer
                        }
                        reading = nil
                    }
                    guard index < parts.count else { return nil }
                    defer { index += 1 }
                    switch parts[index] {
                    case .bytes(let buffer):
                        if buffer.readableBytes > 0 { return buffer }
                    case .mainContent(let file, let version, let range):
                        let content = try await storage.readFile(file, range: range)
                        guard content.metadata.version == version else {
                            throw StorageError(.versionMismatch, "The file changed while its chunks were sent.")
                        }
                        reading = content.body.makeAsyncIterator()
                    }
                }
            }
        }
    }
}
