import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the S256 method only (RFC 9700 §2.1.1 refuses `plain`).
enum PKCE {
    /// Whether `value` is a well-formed verifier or challenge: 43 to 128 unreserved characters (RFC 7636 §4.1).
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.count) && value.unicodeScalars.allSatisfy(FormEncoding.isUnreserved)
    }

    /// The S256 challenge of `verifier`: `BASE64URL(SHA256(ASCII(verifier)))`.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// Whether `verifier` answers `challenge`, compared in constant time.
    static func verify(_ verifier: String, against challenge: String) -> Bool {
        guard isWellFormed(verifier) else { return false }
        return ConstantTime.equals(Self.challenge(for: verifier), challenge)
    }
}

/// Comparisons whose time does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `lhs` and `rhs` have the same UTF-8 bytes; the time depends only on the lengths.
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
