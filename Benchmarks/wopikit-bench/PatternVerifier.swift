import NIOCore

/// Checks, chunk by chunk, that a downloaded body is the ``PatternBody`` of its size.
struct PatternVerifier {
    private(set) var offset: Int64 = 0
    private(set) var mismatchedPages = 0
    private var expected = PatternBody.page(0)
    private var expectedIndex: Int64 = 0

    /// Compares the next received bytes with the pattern at the current offset.
    mutating func consume(_ received: ByteBuffer) {
        var received = received
        while received.readableBytes > 0 {
            let pageIndex = offset / Int64(PatternBody.pageSize)
            let inPage = Int(offset % Int64(PatternBody.pageSize))
            if pageIndex != expectedIndex {
                expected = PatternBody.page(pageIndex)
                expectedIndex = pageIndex
            }
            let take = min(received.readableBytes, PatternBody.pageSize - inPage)
            let actual = received.readSlice(length: take)!
            if actual != expected.getSlice(at: expected.readerIndex + inPage, length: take)! {
                mismatchedPages += 1
            }
            offset += Int64(take)
        }
    }
}
