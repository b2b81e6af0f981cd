import Crypto
import Foundation
import WOPIServer

@testable import WOPIModels

private let accessTokenKey = SymmetricKey(data: Array(repeating: UInt8(7), count: 32))

extension FuzzTarget {
    /// Access-token verification (`?access_token=` on every WOPI request): the token as sent, and, so that the
    /// claims reader behind the MAC is reached, the input as a payload signed with the host's key.
    static let accessToken = FuzzTarget(name: "access-token") { input in
        let (choice, rest) = input.selector
        let signer = AccessTokenSigner(key: accessTokenKey)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        if choice & 1 == 0 {
            _ = try? signer.verify(rest.text, now: now)
        } else {
            let mac = HMAC<SHA256>.authenticationCode(for: rest.data, using: accessTokenKey)
            let token = Base64URL.encode(rest.data) + "." + Base64URL.encode(Array(mac))
            // What verifies must mint back to a token that verifies to the same claims (for expiry times a host
            // mints: milliseconds beyond 2^53 do not survive the trip through `Date`).
            if let claims = try? signer.verify(token, now: now), abs(claims.expiresAt.timeIntervalSince1970) < 1e11 {
                fuzzCheck((try? signer.verify(signer.mint(claims), now: now)) == claims, "mint/verify round trip")
            }
        }
    }
}
