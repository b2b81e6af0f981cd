import Crypto
public import Foundation
public import NIOCore
import Synchronization

/// Computes the SHA-256 digest and length of content while it streams past.
///
/// Backends feed each chunk they store through ``update(_:)`` and read ``finalize()`` at the end, so the digest
/// costs no second pass over the content.
public struct ContentDigest: Sendable {
    private var hasher = SHA256()
    /// Bytes seen so far.
    public private(set) var byteCount: Int64 = 0

    /// Starts a new digest.
    public init() {}

    /// Adds a chunk.
    public mutating func update(_ chunk: ByteBuffer) {
        chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        byteCount += Int64(chunk.readableBytes)
    }

    /// The SHA-256 digest of everything added (32 bytes).
    public func finalize() -> Data {
        Data(hasher.finalize())
    }

    /// The SHA-256 digest of an empty content.
    public static let emptySHA256 = ContentDigest().finalize()
}

/// A ``ContentDigest`` shared by the jobs that hash a body's batches away from the task reading the body.
///
/// A backend that hashes each batch on another executor while it writes the batch (so the task reading the body
/// only reads) keeps the digest here. The batches must be added in the body's order: the backend starts a batch's
/// hashing only once the previous batch's hashing has finished.
package final class SharedContentDigest: Sendable {
    private let digest = Mutex(ContentDigest())

    package init() {}

    /// Adds `chunks`, in order.
    package func update(_ chunks: some Sequence<ByteBuffer>) {
        digest.withLock { digest in
            for chunk in chunks { digest.update(chunk) }
        }
    }

    /// The byte count and SHA-256 digest of everything added.
    package var result: (byteCount: Int64, sha256: Data) {
        digest.withLock { ($0.byteCount, $0.finalize()) }
    }
}
