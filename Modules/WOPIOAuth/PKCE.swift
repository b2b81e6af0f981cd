import WOPIModels
import WOPIOAuthCore

/// A Proof Key for Code Exchange (RFC 7636) pair, always with the `S256` method.
///
/// Each authorization request gets a fresh pair: the ``challenge`` goes into the authorize URL, the ``verifier`` is
/// kept in memory and sent only to the token endpoint with the code.
///
/// ```swift
/// let pkce = PKCE()                 // 32 random bytes → a 43-character verifier
/// pkce.challenge                    // base64url(SHA-256(verifier))
/// ```
public struct PKCE: Sendable, Hashable {
    /// The `code_challenge_method` value this type always uses.
    public static let method = PKCES256.method

    /// The secret `code_verifier`: 43 to 128 unreserved characters.
    public let verifier: String
    /// The `code_challenge`: unpadded base64url of the SHA-256 of ``verifier``.
    public let challenge: String

    /// Creates a pair from 32 fresh random bytes (256 bits of entropy, as RFC 7636 §7.1 recommends).
    public init() {
        self.init(validVerifier: Base64URL.randomString(byteCount: 32))
    }

    /// Creates a pair whose verifier is the base64url form of the given bytes (RFC 7636 §4.1).
    ///
    /// - Parameter randomBytes: At least 32 and at most 96 bytes from a secure generator.
    /// - Throws: ``OAuthError/Code/invalidConfiguration`` when the byte count is out of range.
    public init(randomBytes: [UInt8]) throws(OAuthError) {
        guard (32...96).contains(randomBytes.count) else {
            throw OAuthError(
                .invalidConfiguration,
                "A PKCE verifier needs 32 to 96 random bytes, not \(randomBytes.count); use PKCE() for a fresh one.")
        }
        self.init(validVerifier: Base64URL.encode(randomBytes))
    }

    /// Creates a pair from an existing verifier, such as one restored after a restart.
    ///
    /// - Parameter verifier: 43 to 128 characters from `A-Z a-z 0-9 - . _ ~`.
    /// - Throws: ``OAuthError/Code/invalidConfiguration`` when the verifier breaks RFC 7636 §4.1.
    public init(verifier: String) throws(OAuthError) {
        guard Self.isValidVerifier(verifier) else {
            throw OAuthError(
                .invalidConfiguration,
                "A PKCE verifier must be 43 to 128 characters from A-Z a-z 0-9 - . _ ~; use PKCE() for a fresh one.")
        }
        self.init(validVerifier: verifier)
    }

    private init(validVerifier: String) {
        self.verifier = validVerifier
        self.challenge = Self.challenge(for: validVerifier)
    }

    /// Computes the `S256` challenge of a verifier: `BASE64URL(SHA256(ASCII(verifier)))`.
    public static func challenge(for verifier: String) -> String {
        PKCES256.challenge(for: verifier)
    }

    /// Whether a string is a valid `code_verifier` (RFC 7636 §4.1).
    public static func isValidVerifier(_ verifier: String) -> Bool {
        PKCES256.isWellFormed(verifier)
    }
}

extension PKCE: CustomStringConvertible {
    /// Shows the challenge only; the verifier is a secret.
    public var description: String { "PKCE(method: S256, challenge: \(challenge))" }
}
