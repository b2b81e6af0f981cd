import Foundation
import HTTPTypes
import WOPIStorage

/// A request to the WOPI host, independent of any web framework.
///
/// Adapters (such as `WOPIServerHummingbird`) build one from their own request type; the body is streamed.
public struct WOPIRequest: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path, percent-decoded, without the query (for example `/wopi/files/abc`).
    public var path: String
    /// The query parameters, percent-decoded; the first value wins when a name repeats.
    public var query: [String: String]
    /// The request headers.
    public var headers: HTTPFields
    /// The body, streamed.
    public var body: ByteStream
    /// The host and port the client addressed (HTTP/1.1 `Host`), when known.
    public var authority: String?
    /// The scheme a reverse proxy reports in `X-Forwarded-Proto`, when present.
    public var forwardedProto: String?

    /// Creates a request from a swift-http-types head and a body.
    public init(head: HTTPRequest, body: ByteStream = .empty) {
        let target = head.path ?? "/"
        let components = URLComponents(string: target)
        self.method = head.method
        self.path = components?.percentEncodedPath.removingPercentEncoding ?? target
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] where query[item.name] == nil {
            query[item.name] = item.value ?? ""
        }
        self.query = query
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

    /// The token of an `Authorization: Bearer <token>` header; `Bearer: <token>` is accepted too (digest §9.1).
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
