import Foundation
import NIOCore
import WOPIChunking
import WOPIModels
import WOPITestSupport

/// A GetChunkedFile `ContentFilter` (facts from `GetChunkedFileRequest.cs`): the client's known chunks are the
/// chunks of `known`, cut by the scheme the filter names.
struct ChunkedFilter: Sendable {
    var stream: String
    var scheme: ChunkingScheme
    var chunksToReturn: ChunksToReturn
    var known: ChunkedContent

    static func main(_ chunksToReturn: ChunksToReturn = .all, known: ChunkedContent) -> ChunkedFilter {
        ChunkedFilter(stream: "MainContent", scheme: known.scheme, chunksToReturn: chunksToReturn, known: known)
    }

    static func alternate(_ chunksToReturn: ChunksToReturn = .all, known: ChunkedContent) -> ChunkedFilter {
        ChunkedFilter(stream: "Alternate", scheme: known.scheme, chunksToReturn: chunksToReturn, known: known)
    }

    /// The bytes of a request body (none when it could not be encoded: the host then refuses the request).
    static func bytes(_ body: ByteBuffer?) -> [UInt8] { body.map { Array($0.readableBytesView) } ?? [] }

    /// The request body: a MessageJSON frame and the EndFrame.
    static func body(properties: [String], _ filters: [ChunkedFilter]) -> [UInt8] {
        let message = GetChunkedFileRequestMessage(
            contentPropertiesToReturn: properties,
            contentFilters: filters.map { filter in
                .init(
                    streamID: filter.stream, chunkingScheme: filter.scheme, chunksToReturn: filter.chunksToReturn,
                    alreadyKnownChunks: ChunkedTransferFrames.chunks(of: filter.known.bytes).chunks.map(\.id.base64))
            })
        return Self.bytes(try? ChunkedTransferFrames.body(message))
    }
}

/// A PutChunkedFile `ContentStream` (facts from `PutChunkedFileRequest.cs`): the signature of `new`, and the
/// chunks of `new` that `lastKnown` does not have sent as Chunk frames (each once across the streams).
struct ChunkedStream: Sendable {
    var stream: String
    var new: ChunkedContent
    var lastKnown: ChunkedContent

    static func main(_ new: ChunkedContent, lastKnown: ChunkedContent) -> ChunkedStream {
        ChunkedStream(stream: "MainContent", new: new, lastKnown: lastKnown)
    }

    static func alternate(_ new: ChunkedContent, lastKnown: ChunkedContent) -> ChunkedStream {
        ChunkedStream(stream: "Alternate", new: new, lastKnown: lastKnown)
    }

    static func body(properties: [ContentProperty], _ streams: [ChunkedStream]) -> [UInt8] {
        var signatures: [StreamSignature] = []
        var sent: [ChunkedTransferFrames.Chunk] = []
        for stream in streams {
            let chunks = ChunkedTransferFrames.chunks(of: stream.new.bytes).chunks
            let known = Set(ChunkedTransferFrames.chunks(of: stream.lastKnown.bytes).chunks.map(\.id))
            signatures.append(
                StreamSignature(
                    streamID: stream.stream, chunkingScheme: stream.new.scheme,
                    chunkSignatures: chunks.map { .init(chunkID: $0.id.base64, length: UInt64($0.bytes.count)) }))
            for chunk in chunks where !known.contains(chunk.id) && !sent.contains(chunk) { sent.append(chunk) }
        }
        let message = PutChunkedFileRequestMessage(contentProperties: properties, signatures: signatures)
        return ChunkedFilter.bytes(try? ChunkedTransferFrames.body(message, chunks: sent))
    }
}

/// `FramesValidator` with `GetChunkedFileResponseSchema` (facts from `FramesValidator.cs` and the schema): the
/// first frame is the MessageJSON, each Chunk frame's ID is its payload's hash, each stream has the expected
/// scheme and, put together from the known chunks and those sent, the expected content; the content properties
/// are as expected.
struct FramesCheck: Sendable {
    struct Stream: Sendable {
        var id: String
        var scheme: ChunkingScheme
        /// What the client knew and what the stream must be, when the validator checks the content.
        var content: (known: ChunkedContent, expected: ChunkedContent)?
    }

    struct Property: Sendable {
        var name: String
        /// `nil`: `ShouldBeReturned="false"`.
        var expected: ContentProperty?
    }

    var blobCount: Int?
    var streams: [Stream]
    var properties: [Property] = []

    func problems(_ body: ByteBuffer) -> [String] {
        let response: ChunkedTransferFrames.Response
        let message: GetChunkedFileResponseMessage
        do {
            response = try ChunkedTransferFrames.read(body)
            message = try response.decoded(GetChunkedFileResponseMessage.self)
        } catch {
            return ["the body is not a MessageJSON frame with a GetChunkedFile response, then frames: \(error)"]
        }
        var problems: [String] = []
        if !Self.followsSchema(response.message) { problems.append("the MessageJSON does not follow the schema") }
        if message.signatures.isEmpty { problems.append("Signatures is empty") }
        for (header, payload) in response.frames where header.type == .chunk {
            if header.chunkID != SpookyHash.hash(payload) { problems.append("a Chunk frame's ID is not its hash") }
        }
        let sent = response.chunks
        if let blobCount, sent.count != blobCount {
            problems.append("ExpectedHostBlobsCount: '\(blobCount)' not equal to HostBlobs.Count: '\(sent.count)'")
        }
        for stream in streams {
            guard let signature = message.signatures.first(where: { $0.streamID == stream.id }) else {
                problems.append("no signature for stream \(stream.id)")
                continue
            }
            if signature.chunkingScheme != stream.scheme {
                problems.append(
                    "\(stream.id): scheme \(signature.chunkingScheme.rawValue), expected \(stream.scheme.rawValue)")
            }
            guard let content = stream.content else { continue }
            let knownChunks = ChunkedTransferFrames.chunks(of: content.known.bytes).chunks
            if ChunkedTransferFrames.content(of: signature, known: knownChunks, sent: sent) != content.expected.bytes {
                problems.append("\(stream.id): the chunks do not make the expected content \(content.expected)")
            }
        }
        for property in properties {
            let returned = message.contentProperties.first { $0.name == property.name }
            if returned != property.expected {
                problems.append(
                    "content property \(property.name): \(String(describing: returned)), expected \(String(describing: property.expected))"
                )
            }
        }
        return problems
    }

    /// The schema's required members and enums.
    private static func followsSchema(_ json: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let properties = object["ContentProperties"] as? [[String: Any]],
            let signatures = object["Signatures"] as? [[String: Any]]
        else { return false }
        let retentions = Set(ContentPropertyRetention.allCases.map(\.rawValue))
        let schemes = Set(ChunkingScheme.allCases.map(\.rawValue))
        return properties.allSatisfy { property in
            property["Name"] is String && property["Value"] is String
                && (property["Retention"] as? String).map(retentions.contains) == true
        }
            && signatures.allSatisfy { signature in
                signature["StreamId"] is String
                    && (signature["ChunkingScheme"] as? String).map(schemes.contains) == true
                    && signature["ChunkSignatures"] is [[String: Any]]
            }
    }
}
