import Testing

@testable import WOPIOAuth

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    /// RFC 7636 Appendix B: these 32 octets give this verifier, whose S256 challenge is this.
    static let appendixBOctets: [UInt8] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191,
        240, 91, 88, 5, 88, 83, 132, 141, 121,
    ]
    static let appendixBVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let appendixBChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func appendixBVectorFromOctets() throws {
        let pkce = try PKCE(randomBytes: Self.appendixBOctets)
        #expect(pkce.verifier == Self.appendixBVerifier)
        #expect(pkce.challenge == Self.appendixBChallenge)
    }

    @Test func appendixBVectorFromVerifier() throws {
        let pkce = try PKCE(verifier: Self.appendixBVerifier)
        #expect(pkce.challenge == Self.appendixBChallenge)
        #expect(PKCE.challenge(for: Self.appendixBVerifier) == Self.appendixBChallenge)
    }

    @Test func freshPairsAreWellFormedAndDistinct() {
        let pairs = (0..<50).map { _ in PKCE() }
        for pair in pairs {
            #expect(pair.verifier.count == 43)
            #expect(PKCE.isValidVerifier(pair.verifier))
            #expect(pair.challenge == PKCE.challenge(for: pair.verifier))
            #expect(!pair.challenge.contains("=") && !pair.challenge.contains("+") && !pair.challenge.contains("/"))
        }
        #expect(Set(pairs.map(\.verifier)).count == pairs.count)
    }

    @Test(arguments: [
        String(repeating: "a", count: 42), String(repeating: "a", count: 129),
        String(repeating: "a", count: 42) + "+", String(repeating: "a", count: 42) + "é",
    ])
    func rejectsInvalidVerifiers(_ verifier: String) {
        #expect(throws: OAuthError.self) { try PKCE(verifier: verifier) }
    }

    @Test func acceptsBoundaryLengths() throws {
        _ = try PKCE(verifier: String(repeating: "~", count: 43))
        _ = try PKCE(verifier: String(repeating: "Z", count: 128))
        #expect(throws: OAuthError.self) { try PKCE(randomBytes: [UInt8](repeating: 1, count: 31)) }
    }

    @Test func descriptionHidesTheVerifier() throws {
        let pkce = try PKCE(verifier: Self.appendixBVerifier)
        #expect(!"\(pkce)".contains(Self.appendixBVerifier))
    }
}
