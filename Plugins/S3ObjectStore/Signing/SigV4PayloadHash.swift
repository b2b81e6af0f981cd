import Crypto
package import NIOCore

/// The value a request signs for its body, sent as `x-amz-content-sha256`: the hex SHA-256 of the body, or
/// `UNSIGNED-PAYLOAD` for a body streamed without being hashed first (S3 accepts both over HTTP and HTTPS).
package struct SigV4PayloadHash: Sendable, Hashable, CustomStringConvertible {
    /// The value as signed and sent.
    package let value: String

    private init(value: String) { self.value = value }

    /// A body that is not hashed: the signature covers the headers only.
    package static let unsigned = SigV4PayloadHash(value: "UNSIGNED-PAYLOAD")
    /// The SHA-256 of an empty body.
    package static let empty = SigV4PayloadHash(
        value: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

    /// The hash of the readable bytes of `buffer`.
    package static func sha256(of buffer: ByteBuffer) -> SigV4PayloadHash {
        let digest = buffer.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        return SigV4PayloadHash(value: Hex.encode(digest))
    }

    /// The hash of `bytes`.
    package static func sha256(of bytes: some Sequence<UInt8>) -> SigV4PayloadHash {
        SigV4PayloadHash(value: Hex.encode(SHA256.hash(data: Array(bytes))))
    }

    package var description: String { value }
}

/// Lower-case hexadecimal, as SigV4 writes hashes and signatures.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lower-case hexadecimal.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
