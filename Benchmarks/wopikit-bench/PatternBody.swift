import NIOCore

/// `size` bytes of a checkable pattern, generated chunk by chunk as it is sent: never in memory at once.
///
/// The content is cut in 64 KiB pages; each page is a fixed pseudo-random template whose first 8 bytes are
/// replaced by the page's index (big-endian), so a misplaced, repeated or lost page is detected by
/// ``PatternVerifier``.
struct PatternBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    static let pageSize = 64 * 1024

    /// The template every page starts from.
    static let template: ByteBuffer = {
        var state: UInt64 = 0x5EED_1234_ABCD_0001
        var page = ByteBuffer()
        page.reserveCapacity(pageSize)
        while page.readableBytes < pageSize {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            page.writeInteger(state ^ (state >> 29))
        }
        return page
    }()

    /// Page `index` of the pattern.
    static func page(_ index: Int64) -> ByteBuffer {
        var page = template
        page.setInteger(UInt64(index), at: page.readerIndex)
        return page
    }

    let size: Int64
    /// The size of the chunks handed to the HTTP client (a multiple of ``pageSize``).
    let chunkSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let size: Int64
        let chunkSize: Int
        var offset: Int64 = 0

        mutating func next() async -> ByteBuffer? {
            guard offset < size else { return nil }
            let length = Int(Swift.min(Int64(chunkSize), size - offset))
            var chunk = ByteBuffer()
            chunk.reserveCapacity(length)
            var page = offset / Int64(PatternBody.pageSize)
            while chunk.readableBytes < length {
                var next = PatternBody.page(page)
                let take = Swift.min(next.readableBytes, length - chunk.readableBytes)
                if let slice = next.readSlice(length: take) { chunk.writeImmutableBuffer(slice) }
                page += 1
            }
            offset += Int64(length)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(size: size, chunkSize: chunkSize) }
}
