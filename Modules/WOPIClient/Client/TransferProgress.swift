import NIOCore
import WOPIStorage

/// Called as a transfer moves: bytes done so far and the total when known. Called often; keep it cheap.
public typealias TransferProgress = @Sendable (_ transferred: Int64, _ total: Int64?) -> Void

extension ByteStream {
    /// This stream, reporting each chunk to `progress` as it passes (and once at the start and at the end).
    func reportingProgress(_ progress: TransferProgress?) -> ByteStream {
        guard let progress else { return self }
        let total = knownLength
        return ByteStream(knownLength: total) {
            var iterator = self.makeAsyncIterator()
            var done: Int64 = 0
            var started = false
            return {
                if !started {
                    started = true
                    progress(0, total)
                }
                guard let chunk = try await iterator.next() else {
                    progress(done, total ?? done)
                    return nil
                }
                done += Int64(chunk.readableBytes)
                progress(done, total)
                return chunk
            }
        }
    }
}
