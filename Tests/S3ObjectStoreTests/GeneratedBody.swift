import Crypto
import NIOCore
import Synchronization

/// A body of `size` bytes made chunk by chunk as it is read (nothing is held but the chunk), with its SHA-256 kept
/// as it goes and a check run before each chunk: for uploads that must stream.
struct GeneratedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let size: Int
    let chunkSize: Int
    /// Called with the number of bytes produced so far, before each chunk is made.
    let beforeChunk: @Sendable (Int) throws -> Void
    private let digest = Digest()

    init(size: Int, chunkSize: Int = 64 << 10, beforeChunk: @escaping @Sendable (Int) throws -> Void = { _ in }) {
        self.size = size
        self.chunkSize = chunkSize
        self.beforeChunk = beforeChunk
    }

    /// The pattern the bytes repeat, 65 537 long (a prime, so no chunk or part boundary lines up with it).
    static let pattern: [UInt8] = (0..<65_537).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    /// The byte at `offset`.
    static func byte(at offset: Int) -> UInt8 { pattern[offset % pattern.count] }

    /// The SHA-256 of what was produced, once it all was.
    var sha256: String {
        digest.state.withLock { $0.map { Hex.string($0.finalize()) } ?? "" }
    }

    /// The running SHA-256, shared by the iterator and the test.
    private final class Digest: Sendable {
        let state = Mutex<SHA256?>(SHA256())
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: GeneratedBody
        var produced = 0

        mutating func next() async throws -> ByteBuffer? {
            guard produced < body.size else { return nil }
            try body.beforeChunk(produced)
            let count = Swift.min(body.chunkSize, body.size - produced)
            var buffer = ByteBuffer()
            buffer.reserveCapacity(count)
            var offset = produced
            while offset < produced + count {
                let start = offset % GeneratedBody.pattern.count
                let run = Swift.min(GeneratedBody.pattern.count - start, produced + count - offset)
                buffer.writeBytes(GeneratedBody.pattern[start..<(start + run)])
                offset += run
            }
            body.digest.state.withLock { $0?.update(data: Array(buffer.readableBytesView)) }
            produced += count
            return buffer
        }
    }
}

enum Hex {
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
