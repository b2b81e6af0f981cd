import Foundation

/// Unpadded base64url (RFC 4648 §5), as PKCE and `state` use it, and cryptographically secure random strings.
enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Returns `count` bytes from the system's cryptographically secure generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Returns the base64url form of `byteCount` secure random bytes (`8 × byteCount` bits of entropy).
    static func randomString(byteCount: Int) -> String {
        encode(randomBytes(byteCount))
    }
}
