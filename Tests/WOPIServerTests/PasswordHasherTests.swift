import Testing
import WOPIServer

/// The scrypt hash format, and the decoy an authorization server verifies for an unknown user.
struct PasswordHasherTests {
    let hasher = PasswordHasher(logN: 4)

    @Test func aHashVerifiesItsPasswordOnly() throws {
        let hash = try hasher.hash("correct horse")
        #expect(hasher.verify("correct horse", against: hash))
        #expect(!hasher.verify("correct horsf", against: hash))
        #expect(try hasher.hash("correct horse") != hash, "a new salt each time")
    }

    /// The decoy has the cost fields a real hash of the same hasher has, so verifying against it runs the same
    /// scrypt; it has a salt and a key of a real hash's sizes, a new one each time, and no password matches it.
    @Test func theDecoyCostsWhatARealHashCostsAndMatchesNothing() throws {
        let real = try hasher.hash("x").split(separator: "$")
        let decoy = hasher.decoyHash()
        let fields = decoy.split(separator: "$")
        #expect(fields.count == 6)
        #expect(fields.prefix(4) == real.prefix(4))
        #expect(fields[4].count == real[4].count && fields[5].count == real[5].count)
        #expect(hasher.decoyHash() != decoy)
        for password in ["", "x", "demo", String(fields[5])] {
            #expect(!hasher.verify(password, against: decoy))
        }
    }
}
