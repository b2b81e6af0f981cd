import Foundation
import NIOCore
import WOPIStorage

/// A response body digested as it streamed in: its length, SHA-256 and pattern marker, never the whole body.
struct ReceivedBody: Sendable {
    var length: Int64 = 0
    var sha256 = Data()
    var marker: ContentPattern.Marker?

    /// Consumes `chunks`, keeping only the first bytes (for the marker) and a running digest.
    static func digesting<Chunks: AsyncSequence>(_ chunks: Chunks) async throws -> ReceivedBody
    where Chunks.Element == ByteBuffer {
        var digest = ContentDigest()
        var prefix = ByteBuffer()
        for try await chunk in chunks {
            digest.update(chunk)
            if prefix.readableBytes < ContentPattern.markerSize {
                var head = chunk
                if let slice = head.readSlice(
                    length: min(head.readableBytes, ContentPattern.markerSize - prefix.readableBytes))
                {
                    prefix.writeImmutableBuffer(slice)
                }
            }
        }
        return ReceivedBody(
            length: digest.byteCount, sha256: digest.finalize(), marker: ContentPattern.Marker.parse(prefix))
    }
}
