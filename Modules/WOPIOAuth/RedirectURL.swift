public import Foundation
import WOPIModels

/// A redirect URL handed to the app (custom scheme, claimed https, or loopback), split into its parameters.
///
/// Accepts the hierarchical forms `com.contoso.app:/oauth2redirect?code=…` and `https://app.contoso.com/cb?code=…`
/// and Office's app-to-app form with the parameters right after the scheme: `ms-word-tp:code=…&tk=…&sc=…`.
/// A fragment is ignored. A parameter that occurs twice makes the URL invalid (RFC 6749 §3.1).
public struct RedirectURL: Sendable, Hashable {
    /// The URL as received.
    public let url: URL
    /// The decoded query parameters, by name.
    public let parameters: [String: String]

    /// Parses a redirect URL.
    ///
    /// - Throws: ``OAuthError/Code/invalidResponse`` when the query is malformed or repeats a parameter.
    public init(_ url: URL) throws(OAuthError) {
        self.url = url
        var text = Substring(url.absoluteString)
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        let query: Substring
        if let mark = text.firstIndex(of: "?") {
            query = text[text.index(after: mark)...]
        } else if let colon = text.firstIndex(of: ":"), !Self.isHierarchical(text[text.index(after: colon)...]) {
            query = text[text.index(after: colon)...]
        } else {
            query = ""
        }
        guard let pairs = PercentEncoding.decodePairs(query) else {
            throw OAuthError(
                .invalidResponse, "The redirect URL has a malformed query; start the sign-in again.")
        }
        var parameters: [String: String] = [:]
        for (name, value) in pairs {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw OAuthError(
                    .invalidResponse,
                    "The redirect URL repeats the parameter '\(name)', which OAuth forbids; start the sign-in again.")
            }
        }
        self.parameters = parameters
    }

    /// Parses a redirect URL given as text.
    ///
    /// - Throws: ``OAuthError/Code/invalidResponse`` when the text is not a URL or its query is malformed.
    public init(string: String) throws(OAuthError) {
        guard let url = URL(string: string), url.scheme != nil else {
            throw OAuthError(.invalidResponse, "The redirect '\(string.prefix(80))' is not an absolute URL.")
        }
        try self.init(url)
    }

    /// The decoded value of a parameter.
    public subscript(name: String) -> String? { parameters[name] }

    /// Whether this URL arrived at the given registered redirect URI: same scheme, host, port and path (compared
    /// without case for scheme and host), whatever the query.
    public func matches(_ registered: URL) -> Bool {
        guard url.scheme?.lowercased() == registered.scheme?.lowercased() else { return false }
        if url.host == nil && !Self.isHierarchical(Self.afterScheme(url)) {
            // Opaque app-to-app form (`ms-word-tp:code=…`): only the scheme identifies the app.
            let registeredRest = Self.afterScheme(registered)
            return registered.host == nil && (registeredRest.isEmpty || !Self.isHierarchical(registeredRest))
        }
        return url.host?.lowercased() == registered.host?.lowercased() && url.port == registered.port
            && Self.normalizedPath(url) == Self.normalizedPath(registered)
    }

    private static func isHierarchical(_ rest: Substring) -> Bool {
        rest.isEmpty || rest.hasPrefix("/")
    }

    private static func afterScheme(_ url: URL) -> Substring {
        let text = Substring(url.absoluteString)
        guard let colon = text.firstIndex(of: ":") else { return text }
        let rest = text[text.index(after: colon)...]
        if let mark = rest.firstIndex(of: "?") { return rest[..<mark] }
        return rest
    }

    private static func normalizedPath(_ url: URL) -> String {
        let path = url.path
        return path.isEmpty ? "/" : path
    }
}

extension RedirectURL: CustomStringConvertible {
    /// The URL without its query, which holds the authorization code.
    public var description: String {
        let text = url.absoluteString
        if let mark = text.firstIndex(of: "?") { return String(text[..<mark]) + "?…" }
        return text
    }
}
