import Crypto
public import Foundation
public import NIOCore

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
