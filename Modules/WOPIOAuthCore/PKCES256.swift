import Crypto
import WOPIModels

/// The PKCE `S256` method (RFC 7636 §4.2), the only one WOPIKit sends or accepts (RFC 9700 §2.1.1 refuses `plain`).
package enum PKCES256 {
    /// The `code_challenge_method` value.
    package static let method = "S256"

    /// Whether `value` is a well-formed verifier or challenge: 43 to 128 unreserved characters (RFC 7636 §4.1).
    package static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count) && PercentEncoding.isUnreserved(value)
    }

    /// The challenge of `verifier`: `BASE64URL(SHA256(ASCII(verifier)))`.
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
    }

    /// Whether `verifier` is well formed and answers `challenge`, compared in constant time.
    package static func verify(_ verifier: String, against challenge: String) -> Bool {
        isWellFormed(verifier) && ConstantTime.equals(Self.challenge(for: verifier), challenge)
    }
}
