public import Foundation

/// The `WWW-Authenticate: Bearer …` challenge of an unauthenticated bootstrapper call (Docs/wopi-protocol.md §9.2).
///
/// ```swift
/// let challenge = BootstrapChallenge(
///     authorizationURI: URL(string: "https://contoso.com/api/oauth2/authorize")!,
///     tokenIssuanceURI: URL(string: "https://contoso.com/api/oauth2/token")!,
///     providerID: "tpcontoso", urlSchemes: URLSchemes(iOS: ["contoso"]))
/// response.headerFields[.wwwAuthenticate] = challenge.headerValue
/// ```
///
/// ``headerValue`` writes the safe form: `Bearer` and the parameters separated by `,` with no spaces, every value
/// in double quotes, optional parameters left out when absent. ``parse(_:)`` is tolerant (see
/// ``AuthenticationChallenge/parseList(_:)``) and finds the `Bearer` challenge among others.
public struct BootstrapChallenge: Sendable, Hashable {
    /// The OAuth 2.0 authorization endpoint (`authorization_uri`).
    public var authorizationURI: URL
    /// The OAuth 2.0 token endpoint (`tokenIssuance_uri`).
    public var tokenIssuanceURI: URL
    /// The provider ID Microsoft assigned (`providerId`), if any.
    public var providerID: String?
    /// Where Office may try app-to-app sign-in (`UrlSchemes`), if anywhere.
    public var urlSchemes: URLSchemes?
    /// The optional parameters ``parse(_:)`` ignored because they were malformed, each with the reason, for the
    /// caller to log as warnings. Empty for a challenge made in code.
    public var warnings: [String] = []

    /// Creates a challenge.
    public init(authorizationURI: URL, tokenIssuanceURI: URL, providerID: String? = nil, urlSchemes: URLSchemes? = nil)
    {
        self.authorizationURI = authorizationURI
        self.tokenIssuanceURI = tokenIssuanceURI
        self.providerID = providerID
        self.urlSchemes = urlSchemes
    }

    /// The scheme of the challenge.
    public static let scheme = "Bearer"

    /// The value of the `WWW-Authenticate` header.
    public var headerValue: String {
        var parameters = [
            ("authorization_uri", authorizationURI.absoluteString),
            ("tokenIssuance_uri", tokenIssuanceURI.absoluteString),
        ]
        if let providerID, !providerID.isEmpty { parameters.append(("providerId", providerID)) }
        if let urlSchemes, !urlSchemes.isEmpty { parameters.append(("UrlSchemes", urlSchemes.encodedValue)) }
        return Self.scheme + " " + parameters.map { "\($0.0)=\(Self.quoted($0.1))" }.joined(separator: ",")
    }

    /// Reads the `Bearer` challenge from a `WWW-Authenticate` header value (which may hold several challenges).
    ///
    /// The optional parameters are optional for the reader too: an unreadable `UrlSchemes` (an Android list that
    /// is not triples, say) or a `providerId` with white space or control characters is left out and described in
    /// ``warnings``, and sign-in goes on (Office falls back to its web sign-in in the same case).
    /// - Throws: ``WOPIFormatError`` when the value is malformed, has no `Bearer` challenge, lacks
    ///   `authorization_uri` or `tokenIssuance_uri`, or has one of them that is not an absolute URL.
    public static func parse(_ headerValue: String) throws(WOPIFormatError) -> BootstrapChallenge {
        try parse(headerValues: [headerValue])
    }

    /// Reads the `Bearer` challenge from all `WWW-Authenticate` header values of a response.
    ///
    /// - Throws: ``WOPIFormatError`` as ``parse(_:)``.
    public static func parse(headerValues: [String]) throws(WOPIFormatError) -> BootstrapChallenge {
        var challenges: [AuthenticationChallenge] = []
        for value in headerValues { challenges += try AuthenticationChallenge.parseList(value) }
        guard
            let bearer = challenges.first(where: { $0.hasScheme(scheme) && $0[parameter: "authorization_uri"] != nil })
                ?? challenges.first(where: { $0.hasScheme(scheme) })
        else {
            throw WOPIFormatError(
                .missingField, format: "WWW-Authenticate",
                "No Bearer challenge found; a WOPI "
                    + "bootstrapper answers 401 with "
                    + "'WWW-Authenticate: Bearer authorization_uri=\"…\",tokenIssuance_uri=\"…\"'."
            )
        }
        var warnings: [String] = []
        var schemes: URLSchemes?
        if let value = bearer[parameter: "UrlSchemes"], !value.trimmingWhiteSpace().isEmpty {
            do {
                schemes = try URLSchemes(encodedValue: value)
            } catch {
                warnings.append("The optional UrlSchemes parameter is ignored: \(error.message)")
            }
        }
        var providerID = bearer[parameter: "providerId"].flatMap { $0.isEmpty ? nil : $0 }
        if let id = providerID,
            id.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 } })
        {
            warnings.append(
                "The optional providerId parameter \"\(id.prefix(64))\" is ignored: it contains white space or "
                    + "control characters.")
            providerID = nil
        }
        var challenge = BootstrapChallenge(
            authorizationURI: try absoluteURL(bearer, "authorization_uri"),
            tokenIssuanceURI: try absoluteURL(bearer, "tokenIssuance_uri"),
            providerID: providerID, urlSchemes: schemes)
        challenge.warnings = warnings
        return challenge
    }

    private static func absoluteURL(_ challenge: AuthenticationChallenge, _ name: String) throws(WOPIFormatError) -> URL
    {
        guard let value = challenge[parameter: name] else {
            throw WOPIFormatError(
                .missingField, format: "WWW-Authenticate",
                "The Bearer challenge has no \(name) "
                    + "parameter; the bootstrapper must send both authorization_uri and tokenIssuance_uri.")
        }
        guard let url = URL(string: value), url.scheme != nil, url.host != nil else {
            throw WOPIFormatError(
                .invalidValue, format: "WWW-Authenticate",
                "The \(name) value \"\(value)\" is "
                    + "not an absolute URL.")
        }
        return url
    }

    private static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
