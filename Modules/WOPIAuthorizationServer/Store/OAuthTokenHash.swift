import Crypto
import Foundation
import WOPIModels
import WOPIOAuthCore

/// How codes and tokens are hashed for storage, and how new ones are made.
public enum OAuthTokenHash {
    /// The lower-case hex SHA-256 of `token`'s UTF-8 bytes: the only form in which a store keeps a code or token.
    ///
    /// A plain hash suffices (no salt, no slow KDF) because tokens are 256-bit random values.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A new random token: 32 bytes from the system CSPRNG, base64url without padding (43 characters).
    public static func randomToken() -> String {
        Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }
}
