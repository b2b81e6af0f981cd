import Foundation
import NIOCore
import WOPIStorage

/// Generated content for the tests: position-dependent bytes, so a misplaced chunk changes the digest.
///
/// The bytes repeat with a period of ``period``, a prime that no chunk size divides, and are built from a
/// precomputed block so that generating 32 MiB stays fast in debug builds.
enum TestContent {
    struct InjectedFailure: Error {}

    /// The length of the repeating block.
    static let period = 257_003

    /// One period of the pattern with `seed`.
    static func block(seed: Int) -> [UInt8] {
        (0..<period).map { UInt8(truncatingIfNeeded: ($0 % 251) &+ ($0 >> 10) &+ seed &* 97) }
    }

    /// The bytes `range` of the pattern, for small expectations.
    static func bytes(seed: Int, _ range: Range<Int>) -> [UInt8] {
        let block = block(seed: seed)
        return range.map { block[$0 % period] }
    }

    /// A stream of `size` pattern bytes in pieces of `pieceSize`; it throws after `failAfter` bytes if given.
    static func stream(seed: Int, size: Int, pieceSize: Int = 100_003, failAfter: Int? = nil) -> ByteStream {
        let block = block(seed: seed)
        return ByteStream(knownLength: Int64(size)) {
            var offset = 0
            return {
                if let failAfter, offset >= failAfter { throw InjectedFailure() }
                guard offset < size else { return nil }
                let count = min(pieceSize, size - offset)
                var buffer = ByteBuffer()
                buffer.reserveCapacity(count)
                var position = offset
                while position < offset + count {
                    let start = position % period
                    let run = min(period - start, offset + count - position)
                    buffer.writeBytes(block[start..<start + run])
                    position += run
                }
                offset += count
                return buffer
            }
        }
    }

    /// The SHA-256 of the first `size` pattern bytes, computed piece by piece.
    static func sha256(seed: Int, size: Int) async throws -> Data {
        var digest = ContentDigest()
        for try await piece in stream(seed: seed, size: size) { digest.update(piece) }
        return digest.finalize()
    }

    /// Reads a whole (small) body into bytes.
    static func collect(_ body: ByteStream) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await piece in body { bytes += piece.readableBytesView }
        return bytes
    }
}
