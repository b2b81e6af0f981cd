import Foundation
import HTTPTypes
import WOPIModels
import WOPIStorage

/// A request to the WOPI host, independent of any web framework.
///
/// Adapters (such as `WOPIServerHummingbird`) build one from their own request type; the body is streamed.
public struct WOPIRequest: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The request target exactly as sent: the path and query, still percent-encoded (for example
    /// `/wopi/files/abc?access_token=…`). Proof-key signatures cover it byte for byte.
    public var target: String
    /// The path, percent-decoded, without the query (for example `/wopi/files/abc`).
    public var path: String
    /// The query: every pair, in order, repeats kept.
    public var query: WOPIQuery
    /// The request headers.
    public var headers: HTTPFields
    /// The body, streamed.
    public var body: ByteStream
    /// The host and port the client addressed (HTTP/1.1 `Host`), when known.
    public var authority: String?
    /// The scheme a reverse proxy reports in `X-Forwarded-Proto`, when present.
    public var forwardedProto: String?
    /// The IP address of the connection's peer (the client, or the reverse proxy in front of the host), when the
    /// adapter knows it; the sign-in throttle counts failures per address.
    public var remoteAddress: String?

    /// Creates a request from a swift-http-types head and a body.
    public init(head: HTTPRequest, body: ByteStream = .empty) {
        let target = head.path ?? "/"
        let mark = target.firstIndex(of: "?") ?? target.endIndex
        let rawPath = target[..<mark]
        self.method = head.method
        self.target = target
        self.path = PercentEncoding.decode(rawPath) ?? String(rawPath)
        self.query = WOPIQuery(encoded: mark < target.endIndex ? target[target.index(after: mark)...] : "")
        self.headers = head.headerFields
        self.body = body
        // HTTP/1.1's Host header arrives as the authority.
        self.authority = head.authority
        self.forwardedProto = head.headerFields[HTTPField.Name("X-Forwarded-Proto")!]
    }

    /// The scheme and authority the client used (`https://wopi.example.com`): a proxy's `X-Forwarded-Proto`
    /// wins over `defaultScheme` (the scheme the host itself serves).
    public func origin(defaultScheme: String) -> String? {
        authority.map { "\(forwardedProto ?? defaultScheme)://\($0)" }
    }

    /// The full URL the client called, for proof-key checks: `origin` (the public scheme and authority, see
    /// ``origin(defaultScheme:)``) followed by ``target`` as sent.
    public func url(origin: String) -> String {
        origin.trimmingSuffix("/") + target
    }

    /// The value of a header by name, `nil` when absent.
    public func header(_ name: String) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        return headers[fieldName]
    }

    /// The bearer token from `access_token` or, failing that, from `Authorization: Bearer` (also `Bearer:`).
    public var accessToken: String? {
        if let token = query["access_token"], !token.isEmpty { return token }
        return bearerToken
    }

    /// The token of an `Authorization: Bearer <token>` header; `Bearer: <token>` is accepted too (Docs/wopi-protocol.md
    /// §9.1).
    public var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let scheme = parts[0].lowercased()
        guard scheme == "bearer" || scheme == "bearer:" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
