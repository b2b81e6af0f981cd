import Foundation
public import HTTPTypes
import NIOCore
public import WOPIFoundation
import WOPIModels

/// A request to any WOPIKit endpoint (the WOPI host, the authorization server, the host pages), independent of any
/// web framework.
///
/// Adapters (such as `WOPIServerHummingbird`) build one from their own request type, with the connection's peer
/// address; the body is streamed.
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
    /// The path parameters of the ``HTTPRoute`` that matched the request (`id` for `/open/:id`), from the decoded
    /// ``path``; empty for a request no route chose.
    public var parameters: [String: String] = [:]

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
        self.forwardedProto = head.headerFields[.xForwardedProto]
    }

    /// The scheme and authority the client used (`https://wopi.example.com`): a proxy's `X-Forwarded-Proto`
    /// wins over `defaultScheme` (the scheme the host itself serves).
    ///
    /// Both come from the client, so both are checked: an `X-Forwarded-Proto` other than `http` or `https` is
    /// ignored, and an authority that is not `host[:port]` (`Host: a b`, one with `@` or `/`) gives `nil`, so
    /// no URL the host builds from a request can fail to parse.
    public func origin(defaultScheme: String) -> String? {
        guard let authority, Self.isHostAndPort(authority) else { return nil }
        let proto = forwardedProto?.lowercased()
        let scheme = proto == "http" || proto == "https" ? proto ?? defaultScheme : defaultScheme
        return "\(scheme)://\(authority)"
    }

    /// Whether `authority` is a URI host with an optional port: a registered name or IPv4 address of unreserved
    /// characters, or an IPv6 literal in brackets (RFC 3986 §3.2.2), then `:` and digits, or nothing. It reads the
    /// bytes once, without allocating: every request without a configured public URL asks.
    static func isHostAndPort(_ authority: String) -> Bool {
        let bytes = authority.utf8
        var index = bytes.startIndex
        if bytes.first == UInt8(ascii: "[") {
            let inner = bytes.index(after: index)
            guard let close = bytes[inner...].firstIndex(of: UInt8(ascii: "]")), close > inner,
                bytes[inner..<close].allSatisfy({
                    isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
                })
            else { return false }
            index = bytes.index(after: close)
        } else {
            while index < bytes.endIndex, isUnreserved(bytes[index]) { index = bytes.index(after: index) }
            guard index > bytes.startIndex else { return false }
        }
        guard index < bytes.endIndex else { return true }
        return bytes[index] == UInt8(ascii: ":")
            && bytes[bytes.index(after: index)...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// A letter, a digit, `-`, `.`, `_` or `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    /// The base URL clients reach the server at (`https://wopi.example.com`, no trailing `/`): `publicURL` when the
    /// deployment configures one, else the request's own ``origin(defaultScheme:)``, else `http://localhost`.
    ///
    /// The one place a public base URL is worked out: WOPI URLs, the OAuth issuer, proof-key URLs and host pages
    /// all use it.
    public func baseURL(publicURL: String?, defaultScheme: String) -> String {
        (publicURL ?? origin(defaultScheme: defaultScheme) ?? "http://localhost").trimmingSuffix("/")
    }

    /// The full URL the client called, for proof-key checks: `origin` (the public scheme and authority, see
    /// ``origin(defaultScheme:)``) followed by ``target`` as sent.
    public func url(origin: String) -> String {
        origin.trimmingSuffix("/") + target
    }

    /// The value of the first cookie called `name` in the `Cookie` headers, `nil` when absent.
    public func cookie(named name: String) -> String? {
        cookies(named: name).first
    }

    /// Every value of the cookies called `name` in the `Cookie` headers, in order (a browser sends one per path
    /// that set it).
    public func cookies(named name: String) -> [String] {
        headers[fields: .cookie].flatMap { field in
            field.value.split(separator: ";").compactMap { pair -> String? in
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return parts.count == 2 && parts[0] == name ? parts[1] : nil
            }
        }
    }

    /// The body as an `application/x-www-form-urlencoded` form, read up to `limit` bytes: `nil` when the content
    /// type is another, the body is longer, or it is not UTF-8. Pairs keep their order and repeats.
    public func form(limit: Int = 64 * 1024) async throws -> WOPIQuery? {
        let contentType = headers[.contentType]?.lowercased() ?? ""
        guard
            contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
                == "application/x-www-form-urlencoded"
        else { return nil }
        var bytes: [UInt8] = []
        for try await chunk in body {
            guard bytes.count + chunk.readableBytes <= limit else { return nil }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let query = WOPIQuery(encoded: Substring(text))
        return query.isWellFormed ? query : nil
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

extension String {
    /// The string without any number of trailing `suffix`es.
    package func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
