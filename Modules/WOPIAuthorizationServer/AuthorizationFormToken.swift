package import Crypto
package import Foundation
package import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

/// The anti-forgery token of the sign-in form.
///
/// Two checks guard the form's POST against cross-site request forgery:
/// 1. A hidden `form_token` field: `base64url(expiry|browser-ID) "." base64url(HMAC-SHA256)`, where the MAC
///    covers the expiry, a per-browser ID and every authorization parameter of the form (client, redirect URI,
///    state, scope, PKCE challenge). It cannot be forged without the server's key, expires after
///    ``OAuthAuthorizationServer/Configuration/formLifetime``, and a form whose parameters were altered (another
///    redirect URI, another challenge) fails the MAC.
/// 2. The per-browser ID also lives in a `SameSite=Strict; HttpOnly` cookie set when the form is shown; the POST
///    must carry the same ID. A page on another site can neither read the cookie nor make the browser send it
///    on a cross-site POST, so a token fetched by an attacker does not work from the victim's browser.
///
/// Both work in an in-app web view (WKWebView, Android WebView) and a normal browser: no script is needed, and the
/// cookie is first-party. Several sign-in tabs share one browser ID, so they do not invalidate each other.
package struct AuthorizationFormToken: Sendable {
    /// The cookie that carries the browser ID.
    package static let cookieName = "wopikit_oauth_browser"

    private let key: SymmetricKey

    package init(key: SymmetricKey) {
        self.key = key
    }

    /// A new random browser ID.
    package static func newBrowserID() -> String { OAuthTokenHash.randomToken() }

    /// The first well-formed browser ID in the request's cookies called `cookieName`.
    package static func browserID(in request: WOPIRequest, cookieName: String = cookieName) -> String? {
        request.cookies(named: cookieName).first { $0.count == 43 && PercentEncoding.isUnreserved($0) }
    }

    /// A token for a form with `parameters`, valid until `expiresAt`, bound to `browserID`.
    package func mint(parameters: [(name: String, value: String)], browserID: String, expiresAt: Date) -> String {
        let payload = "\(Int64(expiresAt.timeIntervalSince1970))|\(browserID)"
        return Base64URL.encode(Data(payload.utf8)) + "." + Base64URL.encode(mac(payload, parameters))
    }

    /// Whether `token` was minted for `parameters` and `browserID` and has not expired at `now`.
    package func verify(_ token: String, parameters: [(name: String, value: String)], browserID: String?, now: Date)
        -> Bool
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payloadData = Base64URL.decode(String(parts[0])),
            let mac = Base64URL.decode(String(parts[1])), let payload = String(validating: payloadData, as: UTF8.self)
        else { return false }
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: Self.message(payload, parameters), using: key)
        else { return false }
        let fields = payload.split(separator: "|", maxSplits: 1).map(String.init)
        guard fields.count == 2, let expiry = Int64(fields[0]), let browserID else { return false }
        return Double(expiry) > now.timeIntervalSince1970 && ConstantTime.equals(fields[1], browserID)
    }

    private func mac(_ payload: String, _ parameters: [(name: String, value: String)]) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Self.message(payload, parameters), using: key))
    }

    /// What the MAC covers: a purpose label, the payload and the percent-encoded parameters (unambiguous).
    private static func message(_ payload: String, _ parameters: [(name: String, value: String)]) -> Data {
        Data(("wopikit-oauth-form-v1\n" + payload + "\n" + PercentEncoding.encodePairs(parameters)).utf8)
    }
}
