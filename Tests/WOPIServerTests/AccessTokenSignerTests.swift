import Crypto
import Foundation
import Testing
import WOPIServer
import WOPIStorage

struct AccessTokenSignerTests {
    let signer = AccessTokenSigner(key: SymmetricKey(size: .bits256))
    let file = ItemID(rawValue: "file1")!

    @Test func roundTripsClaims() throws {
        let expiry = Date(timeIntervalSince1970: 2_000_000_000.123)
        for resource in [AccessToken.Resource.file(file), .container(file), .ecosystem] {
            let token = signer.mint(AccessToken(userID: "ana", resource: resource, expiresAt: expiry))
            let claims = try signer.verify(token, now: Date(timeIntervalSince1970: 1_900_000_000))
            #expect(claims.userID == "ana")
            #expect(claims.resource == resource)
            #expect(abs(claims.expiresAt.timeIntervalSince(expiry)) < 0.001)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }, "token must be URL-safe")
        }
    }

    @Test("a user ID of any text round-trips, a combining mark after the field separator included")
    func roundTripsAnyUserID() throws {
        for user in ["Ana Lívia", "\u{301}ana", "ana\u{301}", "😀", "a b:c"] {
            let token = signer.mint(
                AccessToken(userID: user, resource: .file(file), expiresAt: .distantFuture, permission: .view))
            let claims = try signer.verify(token)
            #expect(claims.userID == user && claims.resource == .file(file) && claims.permission == .view, "\(user)")
        }
    }

    @Test func rejectsEveryTamperedCharacter() {
        let token = signer.mint(AccessToken(userID: "ana", resource: .file(file), expiresAt: .distantFuture))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(token)
        for index in characters.indices where characters[index] != "." {
            let original = characters[index]
            characters[index] = alphabet.first { $0 != original }!
            #expect(throws: AccessTokenSigner.Rejection.invalid) { try signer.verify(String(characters)) }
            characters[index] = original
        }
    }

    @Test func rejectsExpiredTokensAndOtherKeys() {
        let past = signer.mint(
            AccessToken(userID: "ana", resource: .ecosystem, expiresAt: Date(timeIntervalSinceNow: -1)))
        #expect(throws: AccessTokenSigner.Rejection.expired) { try signer.verify(past) }
        let other = AccessTokenSigner(key: SymmetricKey(size: .bits256))
        let foreign = other.mint(AccessToken(userID: "ana", resource: .ecosystem, expiresAt: .distantFuture))
        #expect(throws: AccessTokenSigner.Rejection.invalid) { try signer.verify(foreign) }
        for garbage in ["", ".", "abc", "a.b.c", "%%%.%%%"] {
            #expect(throws: AccessTokenSigner.Rejection.invalid) { try signer.verify(garbage) }
        }
    }

    @Test("the credential stamp round-trips; a version 2 token (no stamp) still verifies, unchecked")
    func credentialStamps() throws {
        let key = SymmetricKey(size: .bits256)
        let signer = AccessTokenSigner(key: key)
        var ana = WOPIUser(id: "ana", signInName: "ana", displayName: "Ana", passwordHash: "scrypt$old")
        let stamped = try signer.verify(
            signer.mint(AccessToken(user: ana, resource: .file(file), expiresAt: .distantFuture)))
        #expect(stamped.credentialStamp == ana.credentialStamp && ana.credentialStamp.count == 12)
        #expect(stamped.isCurrent(for: ana))
        ana.passwordHash = "scrypt$new"
        #expect(!stamped.isCurrent(for: ana), "a new password changes the stamp")
        ana.passwordHash = nil
        #expect(ana.credentialStamp.isEmpty && !stamped.isCurrent(for: ana))
        #expect(
            try signer.verify(signer.mint(AccessToken(user: ana, resource: .ecosystem, expiresAt: .distantFuture)))
                .credentialStamp == "")

        // A version 2 token, as signed before stamps: HMAC-SHA256 of the claims' text with the same key.
        let claims = Array("2|ana|f:file1|4102444800000|1".utf8)
        let code = HMAC<SHA256>.authenticationCode(for: claims, using: key)
        func base64url(_ bytes: some Sequence<UInt8>) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let old = try signer.verify(base64url(claims) + "." + base64url(code))
        #expect(old.userID == "ana" && old.permission == .view && old.credentialStamp == nil)
        #expect(old.isCurrent(for: ana))
        // Minted again, such claims keep having no stamp (the fuzzer's mint/verify round trip).
        #expect(try signer.verify(signer.mint(old)) == old)
    }
}
