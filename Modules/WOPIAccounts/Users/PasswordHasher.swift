import Crypto
import Foundation
import _CryptoExtras

/// Salted, deliberately slow password hashing with scrypt (RFC 7914).
///
/// A hash is stored as `scrypt$<log2 N>$<r>$<p>$<salt b64>$<key b64>`, so the cost can be raised later without
/// breaking existing hashes. Verification compares in constant time.
public struct PasswordHasher: Sendable {
    /// log2 of the scrypt CPU/memory cost N.
    public var logN: Int
    /// The scrypt block size r.
    public var blockSize: Int
    /// The scrypt parallelism p.
    public var parallelism: Int

    /// The default cost: N = 2^15, r = 8, p = 1 (32 MiB, about 0.1 s here).
    public init(logN: Int = 15, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// Hashes a password with a new random salt.
    public func hash(_ password: String) throws -> String {
        let salt = Self.randomBytes(16)
        let key = try derive(password, salt: salt, logN: logN, r: blockSize, p: parallelism)
        return format(salt: salt, key: Array(key))
    }

    /// A well-formed hash of this hasher's cost that no password matches: a random salt and a random key. Verifying
    /// any password against it costs exactly what a wrong password costs against a real hash, so a server checks it
    /// when the user is unknown, and no answer's timing tells whether an account exists. It is made without
    /// hashing: a server that made it by hashing a random password spent one scrypt run at every start.
    package func decoyHash() -> String {
        format(salt: Self.randomBytes(16), key: Self.randomBytes(32))
    }

    private func format(salt: [UInt8], key: [UInt8]) -> String {
        [
            "scrypt", String(logN), String(blockSize), String(parallelism),
            Data(salt).base64EncodedString(), Data(key).base64EncodedString(),
        ].joined(separator: "$")
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in generator.next() }
    }

    /// Whether `password` matches `hash`; `false` for a malformed hash.
    public func verify(_ password: String, against hash: String) -> Bool {
        let fields = hash.split(separator: "$").map(String.init)
        guard fields.count == 6, fields[0] == "scrypt", let logN = Int(fields[1]), (1...20).contains(logN),
            let r = Int(fields[2]), let p = Int(fields[3]), let salt = Data(base64Encoded: fields[4]),
            let expected = Data(base64Encoded: fields[5]),
            let actual = try? derive(password, salt: Array(salt), logN: logN, r: r, p: p)
        else { return false }
        return constantTimeEquals(actual, expected)
    }

    private func derive(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32, rounds: 1 << logN, blockSize: r,
            parallelism: p)
        return key.withUnsafeBytes { Data($0) }
    }

    private func constantTimeEquals(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) { difference |= a ^ b }
        return difference == 0
    }
}
