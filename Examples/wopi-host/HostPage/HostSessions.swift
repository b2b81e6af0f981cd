import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIServer

/// Sign-in sessions of the host pages: an HMAC-signed cookie naming the user, with its own key (so a session
/// cookie is never a WOPI access token), `HttpOnly` and `SameSite=Lax` (a cross-site form POST does not carry it).
struct HostSessions: Sendable {
    static let cookieName = "wopikit_session"
    let signer: AccessTokenSigner
    let lifetime: TimeInterval = 8 * 60 * 60
    let secure: Bool

    /// The `Set-Cookie` value that signs `userID` in.
    func cookie(for userID: String, now: Date = Date()) -> String {
        let value = signer.mint(AccessToken(userID: userID, resource: .ecosystem, expiresAt: now + lifetime))
        return "\(Self.cookieName)=\(value); Path=/; HttpOnly; SameSite=Lax; Max-Age=\(Int(lifetime))"
            + (secure ? "; Secure" : "")
    }

    /// The signed-in user's ID, `nil` without a valid session cookie.
    func userID(of request: WOPIRequest, now: Date = Date()) -> String? {
        guard let header = request.headers[.cookie] else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0] == Self.cookieName else { continue }
            if let token = try? signer.verify(String(pair[1]), now: now), token.resource == .ecosystem {
                return token.userID
            }
        }
        return nil
    }
}
