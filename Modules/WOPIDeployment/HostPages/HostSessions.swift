public import Crypto
public import Foundation
import HTTPTypes
public import WOPIAuthorizationServer
public import WOPIHTTPEdge
import WOPIModels
public import WOPIServer

/// The sign-in sessions of the host pages, and the token that protects their sign-in form.
///
/// - A session is a random cookie whose SHA-256 hash the deployment's ``WOPIAuthorizationServer/OAuthStore`` keeps
///   as a record of kind ``WOPIAuthorizationServer/OAuthTokenRecord/Kind/session`` (the user, the expiry, the user's
///   credential stamp), so it is never a WOPI or OAuth access token, and the server can end it: signing out deletes
///   the record, on every host that shares the store, so a copied cookie stops working too. It is `HttpOnly`,
///   `SameSite=Lax` (a cross-site form `POST` does not carry it), and `Secure` whenever
///   the request reached the host over HTTPS, directly or through a proxy that says so in `X-Forwarded-Proto`.
///   Over HTTPS it is named ``secureCookieName`` (`__Host-` prefixed): a browser takes such a cookie only from this
///   very host, over HTTPS, for `Path=/`, so a neighbouring subdomain cannot plant a session of its choosing; and
///   over HTTPS only that name is read.
/// - The sign-in form carries a form token bound to a `SameSite=Strict` browser cookie, as the OAuth sign-in form
///   does, and a cross-site `Origin` is refused: a page elsewhere cannot sign a browser in to an account of its
///   choosing (login CSRF).
/// - Signing out deletes the record and removes the cookie; a session otherwise ends after ``lifetime``, or when
///   the user's password changes.
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
    /// The client ID of every session record: sessions belong to no OAuth client.
    public static let recordClientID = "wopikit-host-pages"
    /// Where the sessions are kept.
    public let store: any OAuthStore
    private let formTokens: AuthorizationFormToken
    private let now: @Sendable () -> Date

    /// Sessions kept in `store`, with sign-in forms signed with `key` (a key of their own, never the WOPI token key).
    ///
    /// - Parameters:
    ///   - key: the sign-in forms' own signing key.
    ///   - store: where the sessions are kept: the deployment's OAuth store, shared by every host of it.
    ///   - lifetime: how long a session lasts (default 2 hours).
    ///   - formLifetime: how long a sign-in form may be posted after it was shown (default 15 minutes).
    ///   - now: the clock, for tests.
    public init(
        key: SymmetricKey, store: any OAuthStore, lifetime: TimeInterval = 2 * 60 * 60,
        formLifetime: TimeInterval = 15 * 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.formTokens = AuthorizationFormToken(key: key)
        self.lifetime = lifetime
        self.formLifetime = formLifetime
        self.now = now
    }

    /// Starts a session for `user` and returns the `Set-Cookie` value that carries it; `secure` when the request
    /// came over HTTPS. The session keeps the user's ``WOPIAccounts/WOPIUser/credentialStamp``, so a new password
    /// ends it.
    ///
    /// - Throws: what the store throws when it cannot save the session.
    public func cookie(for user: WOPIUser, secure: Bool) async throws -> String {
        let value = OAuthTokenHash.randomToken()
        let hash = OAuthTokenHash.hash(value)
        try await store.saveToken(
            OAuthTokenRecord(
                hash: hash, kind: .session, clientID: Self.recordClientID, userID: user.id, scope: "", familyID: hash,
                expiresAt: now() + lifetime, credentialStamp: user.credentialStamp))
        return SetCookie(name: Self.cookieName(secure: secure), value: value, maxAge: Int(lifetime), secure: secure)
            .headerValue
    }

    /// Ends the sessions `request` carries, on every host of the store, and returns the `Set-Cookie` value that
    /// removes the cookie. Over HTTPS (`secure`) only ``secureCookieName`` is read.
    ///
    /// - Throws: what the store throws when it cannot delete a session.
    public func signOut(_ request: WOPIRequest, secure: Bool) async throws -> String {
        for value in request.cookies(named: Self.cookieName(secure: secure)) {
            try await store.revokeToken(OAuthTokenHash.hash(value))
        }
        return SetCookie.removing(Self.cookieName(secure: secure), secure: secure).headerValue
    }

    /// The signed-in user, as `users` has them now: `nil` without a session cookie whose session is kept, when the
    /// session has expired or was ended by signing out, when the user is gone, or when the session began before the
    /// user's password changed. Over HTTPS (`secure`) only ``secureCookieName`` is read.
    public func signedInUser(of request: WOPIRequest, in users: any UserDirectory, secure: Bool) async throws
        -> WOPIUser?
    {
        for value in request.cookies(named: Self.cookieName(secure: secure)) {
            if let user = try await store.currentUser(holding: value, kind: .session, in: users, now: now()) {
                return user
            }
        }
        return nil
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
