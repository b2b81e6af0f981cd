public import Foundation
public import WOPIOAuthCore

extension AuthorizationServerMetadata {
    /// The RFC 8414 §3.1 metadata URL of an issuer: `/.well-known/oauth-authorization-server` inserted between the
    /// host and the issuer's path (`https://a.example/tenant` → `https://a.example/.well-known/…/tenant`).
    public static func wellKnownURL(for issuer: URL) -> URL? {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return nil }
        var path = components.path
        if path.hasSuffix("/") { path.removeLast() }
        components.path = "/.well-known/oauth-authorization-server" + path
        components.query = nil
        components.fragment = nil
        return components.url
    }

    /// Fetches and checks an issuer's metadata, if the server offers it.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier, for example `https://contoso.com`.
    ///   - transport: The HTTP transport.
    /// - Returns: The metadata, or `nil` when the server has none (HTTP 404 or 410).
    /// - Throws: ``OAuthError/Code/issuerMismatch`` when the document names another issuer (RFC 8414 §3.3);
    ///   ``OAuthError/Code/invalidResponse`` or ``OAuthError/Code/transport`` when it cannot be read.
    public static func discover(issuer: URL, transport: any OAuthHTTPTransport = AsyncHTTPClientOAuthTransport())
        async throws(OAuthError) -> AuthorizationServerMetadata?
    {
        guard let url = wellKnownURL(for: issuer) else {
            throw OAuthError(.invalidConfiguration, "'\(issuer.absoluteString)' is not a valid issuer URL.")
        }
        let response = try await transport.perform(
            OAuthHTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"]))
        if response.status == 404 || response.status == 410 { return nil }
        guard response.status == 200 else {
            throw OAuthError(
                .invalidResponse,
                "The metadata at \(url.absoluteString) answered HTTP \(response.status); configure the endpoints by "
                    + "hand or try again later.", httpStatus: response.status)
        }
        let metadata: AuthorizationServerMetadata
        do {
            metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: response.body)
        } catch {
            throw OAuthError(
                .invalidResponse,
                "The metadata at \(url.absoluteString) is not valid RFC 8414 JSON; configure the endpoints by hand.",
                httpStatus: response.status, underlying: error)
        }
        guard metadata.issuer == issuer.absoluteString else {
            throw OAuthError(
                .issuerMismatch,
                "The metadata at \(url.absoluteString) names issuer '\(metadata.issuer)', not "
                    + "'\(issuer.absoluteString)'; it was rejected. Check the issuer URL.")
        }
        return metadata
    }
}
