import Foundation
public import WOPIAccounts
import WOPIModels
import WOPIOAuthCore

/// A client registered with the ``OAuthAuthorizationServer``, such as Office (confidential) or a native app.
///
/// Redirect URIs are checked when the client is created (``validateRedirectURI(_:)``) and matched exactly at
/// sign-in, with the one exception of RFC 8252 §7.3: a loopback URI (`http://127.0.0.1/…`, `http://[::1]/…`)
/// matches on any port.
///
/// ```swift
/// let office = try OAuthClient.confidential(id: "office", secret: secret, redirectURIs: ["https://localhost"])
/// try await store.saveClient(office)
/// ```
public struct OAuthClient: Sendable, Hashable, Codable {
    /// How the client authenticates at the token endpoint.
    public enum Kind: Sendable, Hashable, Codable {
        /// A server-side client with a secret (`client_secret_basic` or `client_secret_post`); the secret is
        /// stored as a ``PasswordHasher`` hash.
        case confidential(secretHash: String)
        /// A native app that cannot keep a secret (RFC 8252): it must use PKCE with S256.
        case `public`
    }

    /// The client ID (`client_id`).
    public var id: String
    /// How it authenticates.
    public var kind: Kind
    /// The registered redirect URIs.
    public var redirectURIs: [String]
    /// A name shown on the sign-in page, `nil` to show the ID.
    public var name: String?

    /// Creates a client, checking its ID and redirect URIs.
    ///
    /// - Throws: ``OAuthRegistrationError`` for an invalid ID or redirect URI, or no redirect URI.
    public init(id: String, kind: Kind, redirectURIs: [String], name: String? = nil) throws(OAuthRegistrationError) {
        guard Self.isValidID(id) else {
            throw OAuthRegistrationError(
                .invalidClientID, "A client ID is 1 to 128 characters of A-Z a-z 0-9 - . _ ~; \"\(id)\" is not.")
        }
        guard !redirectURIs.isEmpty else {
            throw OAuthRegistrationError(.missingRedirectURI, "Register at least one redirect URI for \(id).")
        }
        for uri in redirectURIs { try Self.validateRedirectURI(uri) }
        self.id = id
        self.kind = kind
        self.redirectURIs = redirectURIs
        self.name = name
    }

    /// A confidential client whose `secret` is hashed with `hasher` (the raw secret is not kept).
    ///
    /// - Throws: ``OAuthRegistrationError`` for an invalid ID, redirect URI, or a secret under 16 characters.
    public static func confidential(
        id: String, secret: String, redirectURIs: [String], name: String? = nil,
        hasher: PasswordHasher = PasswordHasher()
    ) throws -> OAuthClient {
        guard secret.count >= 16 else {
            throw OAuthRegistrationError(
                .weakSecret,
                "A client secret needs at least 16 characters; generate one with `openssl rand -base64 32`.")
        }
        return try OAuthClient(
            id: id, kind: .confidential(secretHash: try hasher.hash(secret)), redirectURIs: redirectURIs, name: name)
    }

    /// Whether the client is public (no secret, PKCE required).
    public var isPublic: Bool {
        if case .public = kind { return true }
        return false
    }

    /// Whether `id` is a valid client ID: 1 to 128 RFC 3986 unreserved characters.
    public static func isValidID(_ id: String) -> Bool {
        (1...128).contains(id.count) && PercentEncoding.isUnreserved(id)
    }

    /// The registered redirect URI that `requested` matches, or `nil`.
    ///
    /// Matching is exact string comparison, except that a registered loopback URI matches `requested` on any port
    /// when the scheme, host, path and query are equal (RFC 8252 §7.3).
    public func matchingRedirectURI(_ requested: String) -> String? {
        if let exact = redirectURIs.first(where: { $0 == requested }) { return exact }
        guard let asked = LoopbackURI(requested) else { return nil }
        return redirectURIs.first { LoopbackURI($0)?.matches(asked) == true }
    }

    /// Checks that `uri` may be registered as a redirect URI.
    ///
    /// Allowed: `https` URIs (including Office's `https://localhost` stop URL); `http` only on the loopback IP
    /// literals `127.0.0.1` and `[::1]` (RFC 8252 §7.3; `localhost` is refused, §8.3); private-use schemes in
    /// reverse-domain form such as `com.example.app:/oauth` (RFC 8252 §7.1). Never a fragment (RFC 6749 §3.1.2).
    ///
    /// - Throws: ``OAuthRegistrationError`` with code `invalidRedirectURI` saying what is wrong.
    public static func validateRedirectURI(_ uri: String) throws(OAuthRegistrationError) {
        func refuse(_ reason: String) -> OAuthRegistrationError {
            OAuthRegistrationError(.invalidRedirectURI, "The redirect URI \(uri) is refused: \(reason)")
        }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            !uri.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F })
        else { throw refuse("it is not an absolute URI.") }
        guard components.fragment == nil else { throw refuse("a redirect URI must not have a fragment.") }
        switch scheme {
        case "https":
            guard let host = components.host, !host.isEmpty else { throw refuse("an https URI needs a host.") }
        case "http":
            guard LoopbackURI(uri) != nil else {
                throw refuse(
                    "plain http is allowed only on the loopback IP literals 127.0.0.1 and [::1] (RFC 8252 §7.3).")
            }
        default:
            guard scheme.contains("."), !scheme.hasPrefix("."), !scheme.hasSuffix(".") else {
                throw refuse(
                    "a private-use scheme must be a reverse domain name such as com.example.app (RFC 8252 §7.1).")
            }
        }
    }
}

/// A loopback redirect URI (`http://127.0.0.1[:port]/path` or `http://[::1][:port]/path`), compared without its port.
struct LoopbackURI: Equatable {
    let host: String
    let path: String
    let query: String?

    init?(_ uri: String) {
        guard let components = URLComponents(string: uri), components.scheme == "http", components.user == nil,
            components.password == nil, components.fragment == nil, let host = components.host,
            host == "127.0.0.1" || host == "[::1]" || host == "::1"
        else { return nil }
        self.host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.query = components.percentEncodedQuery
    }

    func matches(_ other: LoopbackURI) -> Bool { self == other }
}
