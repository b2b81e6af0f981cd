public import Crypto
public import Foundation
import HTTPTypes
import WOPIAuthorizationServer
public import WOPIHTTPEdge
import WOPIModels
public import WOPIServer

/// The sign-in sessions of the host pages, and the token that protects their sign-in form.
///
/// - A session is an HMAC-signed cookie naming the user, with its own key (so a session cookie is never a WOPI
///   access token), `HttpOnly`, `SameSite=Lax` (a cross-site form `POST` does not carry it), and `Secure` whenever
///   the request reached the host over HTTPS, directly or through a proxy that says so in `X-Forwarded-Proto`.
///   Over HTTPS it is named ``secureCookieName`` (`__Host-` prefixed): a browser takes such a cookie only from this
///   very host, over HTTPS, for `Path=/`, so a neighbouring subdomain cannot plant a session of its choosing; and
///   over HTTPS only that name is read.
/// - The sign-in form carries a form token bound to a `SameSite=Strict` browser cookie, as the OAuth sign-in form
///   does, and a cross-site `Origin` is refused: a page elsewhere cannot sign a browser in to an account of its
///   choosing (login CSRF).
/// - Signing out removes the cookie; a session otherwise ends after ``lifetime``.
public struct HostSessions: Sendable {
    /// The session cookie's name over plain HTTP.
    public static let cookieName = "wopikit_session"
    /// The session cookie's name over HTTPS: `__Host-` makes the browser refuse it from another host, without
    /// `Secure` or for another path.
    public static let secureCookieName = "__Host-" + cookieName

    /// The session cookie's name for a request that came over HTTPS (`secure`) or not.
    public static func cookieName(secure: Bool) -> String {
        secure ? secureCookieName : cookieName
    }
    /// The sign-in form's browser cookie.
    public static let formCookieName = "wopikit_signin"
    /// How long a session lasts.
    public let lifetime: TimeInterval
    /// How long a sign-in form may be posted after it was shown.
    public let formLifetime: TimeInterval
    private let signer: AccessTokenSigner
    private let formTokens: AuthorizationFormToken
    private let now: @Sendable () -> Date

    /// Sessions signed with `key` (a key of their own, never the WOPI token key).
    ///
    /// - Parameters:
    ///   - key: the sessions' own signing key.
    ///   - lifetime: how long a session lasts (default 2 hours).
    ///   - formLifetime: how long a sign-in form may be posted after it was shown (default 15 minutes).
    ///   - now: the clock, for tests.
    public init(
        key: SymmetricKey, lifetime: TimeInterval = 2 * 60 * 60, formLifetime: TimeInterval = 15 * 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signer = AccessTokenSigner(key: key)
        self.formTokens = AuthorizationFormToken(key: key)
        self.lifetime = lifetime
        self.formLifetime = formLifetime
        self.now = now
    }

    /// The `Set-Cookie` value that signs `user` in; `secure` when the request came over HTTPS. The session carries
    /// the user's ``WOPIServer/WOPIUser/credentialStamp``, so a new password ends it.
    public func cookie(for user: WOPIUser, secure: Bool) -> String {
        let value = signer.mint(AccessToken(user: user, resource: .ecosystem, expiresAt: now() + lifetime))
        return SetCookie(name: Self.cookieName(secure: secure), value: value, maxAge: Int(lifetime), secure: secure)
            .headerValue
    }

    /// The `Set-Cookie` value that signs the browser out.
    public func signOutCookie(secure: Bool) -> String {
        SetCookie.removing(Self.cookieName(secure: secure), secure: secure).headerValue
    }

    /// The signed-in user's ID, `nil` without a valid session cookie (the user's password may have changed since:
    /// ``signedInUser(of:in:secure:)`` checks that too). Over HTTPS (`secure`) only ``secureCookieName`` is read.
    public func userID(of request: WOPIRequest, secure: Bool = false) -> String? {
        session(of: request, secure: secure)?.userID
    }

    /// The signed-in user, as `users` has them now: `nil` without a valid session cookie, when the user is gone, or
    /// when the session was issued before the user's password changed.
    /// Over HTTPS (`secure`) only ``secureCookieName`` is read.
    public func signedInUser(of request: WOPIRequest, in users: any UserDirectory, secure: Bool) async throws
        -> WOPIUser?
    {
        guard let session = session(of: request, secure: secure), let user = try await users.user(session.userID),
            session.isCurrent(for: user)
        else { return nil }
        return user
    }

    private func session(of request: WOPIRequest, secure: Bool) -> AccessToken? {
        request.cookies(named: Self.cookieName(secure: secure)).lazy.compactMap { try? signer.verify($0, now: now()) }
            .first { $0.resource == .ecosystem }
    }

    // MARK: - The sign-in form (the OAuth sign-in form's anti-forgery token, with a cookie of its own)

    /// A fresh form token for the sign-in page and the browser cookie it is bound to (reused when the browser
    /// has one).
    public func signInForm(for request: WOPIRequest, secure: Bool) -> (formToken: String, cookie: String) {
        let browserID =
            AuthorizationFormToken.browserID(in: request, cookieName: Self.formCookieName)
            ?? AuthorizationFormToken.newBrowserID()
        let token = formTokens.mint(parameters: [], browserID: browserID, expiresAt: now() + formLifetime)
        let cookie = SetCookie(
            name: Self.formCookieName, value: browserID, maxAge: Int(formLifetime), secure: secure, sameSite: .strict)
        return (token, cookie.headerValue)
    }

    /// Whether a sign-in `POST` is genuine: its form token is valid and bound to this browser's cookie, and its
    /// `Origin`, when the browser sends one, is one of `origins` (the host's public base URL, and the origin the
    /// request itself addressed).
    public func acceptsSignIn(_ request: WOPIRequest, formToken: String?, origins: [String]) -> Bool {
        guard Self.isSentFromOneOf(origins, request) else { return false }
        guard let formToken else { return false }
        let browserID = AuthorizationFormToken.browserID(in: request, cookieName: Self.formCookieName)
        return formTokens.verify(formToken, parameters: [], browserID: browserID, now: now())
    }

    /// Whether a browser's form `POST` comes from one of `origins`: its `Origin`, when it sends one (a browser does
    /// on every cross-site `POST`), is among them.
    static func isSentFromOneOf(_ origins: [String], _ request: WOPIRequest) -> Bool {
        request.headers[.origin].map { origins.contains($0.trimmingSuffix("/")) } ?? true
    }
}
