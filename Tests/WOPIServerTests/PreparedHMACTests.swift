import Crypto
import Foundation
import Testing
import WOPIServer

/// `PreparedHMAC` (the token signer's MAC) against RFC 4231's HMAC-SHA-256 vectors and swift-crypto's `HMAC`.
struct PreparedHMACTests {
    /// RFC 4231 §4.2–4.8 without §4.6 (truncated output): key, data, HMAC-SHA-256.
    static let vectors: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            Array(repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            Array(repeating: 0xaa, count: 20), Array(repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), Array(repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            Array(repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            Array(repeating: 0xaa, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs to "
                    + "be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test(arguments: 0..<vectors.count) func matchesRFC4231(index: Int) {
        let vector = Self.vectors[index]
        let mac = PreparedHMAC(key: SymmetricKey(data: vector.key))
        let code = Array(mac.code(for: vector.data))
        #expect(code.map { String(format: "%02x", $0) }.joined() == vector.mac)
        #expect(mac.isValid(code, for: vector.data))
    }

    @Test func matchesSwiftCryptoForRandomKeysAndMessages() {
        var generator = SystemRandomNumberGenerator()
        // Key lengths around SHA-256's 64-byte block (shorter, equal, longer) and messages of 0 to 300 bytes.
        for keyLength in [1, 16, 32, 63, 64, 65, 100, 200] {
            let key = SymmetricKey(data: (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let mac = PreparedHMAC(key: key)
            for _ in 0..<25 {
                let message = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
                // The same prepared states serve every call: copies, never consumed.
                #expect(Array(mac.code(for: message)) == expected)
                #expect(Array(mac.code(for: message)) == expected)
                #expect(mac.isValid(expected, for: message))
            }
        }
    }

    @Test func refusesEveryAlteredOrShortenedCode() {
        let mac = PreparedHMAC(key: SymmetricKey(size: .bits256))
        let message = Array("2|ana|f:file1|4102444800000|2".utf8)
        let code = Array(mac.code(for: message))
        for index in code.indices {
            var altered = code
            altered[index] ^= 0x01
            #expect(!mac.isValid(altered, for: message))
        }
        #expect(!mac.isValid(Array(code.dropLast()), for: message))
        #expect(!mac.isValid(code + [0], for: message))
        #expect(!mac.isValid([], for: message))
        #expect(!mac.isValid(code, for: message + [0]))
    }
}
