package import Crypto
import WOPIModels

/// HMAC-SHA256 (RFC 2104) whose key is set up once: the SHA-256 states after the key's inner and outer pads.
///
/// `HMAC<SHA256>` pads and hashes the key on every call: two of the four SHA-256 blocks of a token's MAC. Here
/// both padded blocks are hashed once, when the signer is made; each MAC copies the two prepared states
/// (`SHA256` is a value type) and hashes only the message and the inner digest. The codes are byte for byte
/// `HMAC<SHA256>`'s.
package struct PreparedHMAC: Sendable {
    /// The SHA-256 state after `(key ⊕ ipad)`.
    private let inner: SHA256
    /// The SHA-256 state after `(key ⊕ opad)`.
    private let outer: SHA256

    /// Prepares `key`: a key longer than SHA-256's 64-byte block is hashed first, a shorter one padded with zeros.
    package init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { bytes in
            if bytes.count > block.count {
                block.replaceSubrange(0..<SHA256.byteCount, with: Array(SHA256.hash(data: bytes)))
            } else {
                block.replaceSubrange(0..<bytes.count, with: bytes)
            }
        }
        var inner = SHA256()
        var outer = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        outer.update(data: block.map { $0 ^ 0x5c })
        for index in block.indices { block[index] = 0 }
        self.inner = inner
        self.outer = outer
    }

    /// The MAC of `message`.
    package func code(for message: UnsafeRawBufferPointer) -> SHA256.Digest {
        var inner = self.inner
        inner.update(bufferPointer: message)
        let innerDigest = inner.finalize()
        var outer = self.outer
        innerDigest.withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }

    /// The MAC of `message`.
    package func code(for message: [UInt8]) -> SHA256.Digest {
        message.withUnsafeBytes { code(for: $0) }
    }

    /// Whether `mac` is the MAC of `message`, compared in constant time (the time depends only on the lengths).
    package func isValid(_ mac: [UInt8], for message: [UInt8]) -> Bool {
        mac.withUnsafeBytes { mac in message.withUnsafeBytes { isValid(mac, for: $0) } }
    }

    /// Whether `mac` is the MAC of `message`, compared in constant time (the time depends only on the lengths).
    package func isValid(_ mac: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool {
        code(for: message).withUnsafeBytes { ConstantTime.equals($0, mac) }
    }
}
