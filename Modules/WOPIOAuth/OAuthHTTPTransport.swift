public import Foundation

/// A small HTTP request from the OAuth client: a form POST to a token endpoint or a GET of metadata.
public struct OAuthHTTPRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields (names are case-insensitive on the wire).
    public var headers: [String: String]
    /// The body, if any (a few hundred bytes of form data).
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The response to an ``OAuthHTTPRequest``.
public struct OAuthHTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The whole body (small: a token response or metadata document).
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// Sends the OAuth client's small HTTP requests; open for third-party conformances (for example one over
/// AsyncHTTPClient, or one with certificate pinning).
///
/// Implementations must not follow redirects on POST, should not cache, and throw any error they like for a
/// failure to get a response (the client wraps it as ``OAuthError/Code/transport``). A non-2xx status is a
/// response, not an error.
public protocol OAuthHTTPTransport: Sendable {
    /// Sends a request and returns the status, headers and body.
    func send(_ request: OAuthHTTPRequest) async throws -> OAuthHTTPResponse
}
