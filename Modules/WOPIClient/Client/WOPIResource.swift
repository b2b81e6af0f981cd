public import Foundation
import WOPIModels

/// A WOPI endpoint and the access token that goes with it, as the host hands them out
/// (`…/wopi/files/{id}?access_token=…&access_token_ttl=…`).
///
/// The endpoint without the token is the WOPISrc of a file (or the WOPI URL of a container): stable, safe to
/// log and to store. The token is a secret and is never logged.
public struct WOPIResource: Sendable, Hashable, CustomStringConvertible {
    /// What the endpoint names.
    public enum Kind: String, Sendable, Hashable {
        /// `…/wopi*/files/{id}`.
        case file
        /// `…/wopi*/containers/{id}`.
        case container
        /// `…/wopi*/ecosystem`.
        case ecosystem
    }

    /// The endpoint URL without `access_token` and `access_token_ttl` (for a file, its WOPISrc).
    public let endpoint: URL
    /// The kind of endpoint.
    public let kind: Kind
    /// The file or container ID: the path segment after `files/` or `containers/`; `nil` for the ecosystem.
    public let id: String?
    /// The WOPI access token, if any.
    public var accessToken: String?
    /// When the token expires (`access_token_ttl`), when the host said so.
    public var accessTokenExpiry: Date?

    /// Reads a WOPI URL returned by a host (`Url`, `EcosystemUrl`, `ContainerPointer.Url`).
    ///
    /// - Throws: ``WOPIClientError/Code/protocolViolation`` when the URL is not absolute or its path is not
    ///   `…/wopi*/files/{id}`, `…/wopi*/containers/{id}` or `…/wopi*/ecosystem`.
    public init(url: URL) throws(WOPIClientError) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.scheme != nil,
            components.host != nil
        else {
            throw WOPIClientError(
                .protocolViolation, "The host returned \"\(Self.redacted(url))\", not an absolute URL.")
        }
        var items = components.percentEncodedQueryItems ?? []
        let token = items.first { $0.name == "access_token" }?.value?.removingPercentEncoding
        let ttl = items.first { $0.name == "access_token_ttl" }?.value.flatMap { Int64($0) }
        items.removeAll { $0.name == "access_token" || $0.name == "access_token_ttl" }
        components.percentEncodedQueryItems = items.isEmpty ? nil : items
        components.fragment = nil
        guard let endpoint = components.url else {
            throw WOPIClientError(
                .protocolViolation, "The host returned a URL that cannot be rebuilt without its token.")
        }
        let segments = endpoint.pathComponents.filter { $0 != "/" }
        guard let index = segments.lastIndex(where: { $0.lowercased().hasPrefix("wopi") }), index + 1 < segments.count
        else {
            throw WOPIClientError(
                .protocolViolation,
                "The URL \(endpoint.absoluteString) is not a WOPI endpoint (…/wopi*/files|containers|ecosystem).")
        }
        let rest = Array(segments[(index + 1)...])
        switch (rest.first, rest.count) {
        case ("files", 2): (kind, id) = (.file, rest[1])
        case ("containers", 2): (kind, id) = (.container, rest[1])
        case ("ecosystem", 1): (kind, id) = (.ecosystem, nil)
        default:
            throw WOPIClientError(
                .protocolViolation,
                "The URL \(endpoint.absoluteString) names no file, container or ecosystem endpoint.")
        }
        self.endpoint = endpoint
        self.accessToken = token
        self.accessTokenExpiry = ttl.flatMap { $0 > 0 ? EpochMilliseconds.date($0) : nil }
    }

    /// Reads a WOPI URL given as text.
    ///
    /// - Throws: ``WOPIClientError/Code/protocolViolation`` as ``init(url:)``.
    public init(string: String) throws(WOPIClientError) {
        guard let url = URL(string: string) else {
            throw WOPIClientError(.protocolViolation, "The host returned a malformed URL.")
        }
        try self.init(url: url)
    }

    /// A resource from an endpoint without token and a separately known token (for example a WOPISrc and the
    /// token of `wopi-host token`).
    ///
    /// - Throws: ``WOPIClientError/Code/protocolViolation`` as ``init(url:)``.
    public init(endpoint: URL, accessToken: String?, expiry: Date? = nil) throws(WOPIClientError) {
        try self.init(url: endpoint)
        self.accessToken = accessToken
        self.accessTokenExpiry = expiry
    }

    /// The WOPISrc of a file, or the WOPI URL of a container: the endpoint without a token.
    public var wopiSrc: URL { endpoint }

    /// The URL of a sub-endpoint (`contents`, `children`, `ancestry`, …) with `token` appended.
    public func url(_ suffix: String?, token: String?) -> URL {
        var base = endpoint
        if let suffix, !suffix.isEmpty { base = base.appendingPathComponent(suffix) }
        guard let token, var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return base }
        var items = components.percentEncodedQueryItems ?? []
        items.append(URLQueryItem(name: "access_token", value: Self.encodeQueryValue(token)))
        components.percentEncodedQueryItems = items
        return components.url ?? base
    }

    /// The endpoint with its token, as the host returned it (secret: do not log).
    public var urlWithToken: URL { url(nil, token: accessToken) }

    public var description: String { "\(kind) \(endpoint.absoluteString)" }

    private static func encodeQueryValue(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private static func redacted(_ url: URL) -> String {
        url.absoluteString.split(separator: "?").first.map(String.init) ?? ""
    }
}
