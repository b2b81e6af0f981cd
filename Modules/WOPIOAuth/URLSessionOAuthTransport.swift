import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``OAuthHTTPTransport`` over an ephemeral `URLSession` (FoundationNetworking on Linux), for an app that
/// wants Foundation's stack; the default is ``AsyncHTTPClientOAuthTransport``.
///
/// Fine for token and metadata requests, whose bodies are small; responses over ``maximumBodySize`` are refused.
/// The session made by ``init(timeout:maximumBodySize:)`` does not follow redirects: a 3xx comes back as the
/// response, which the token client reports as an error rather than resending credentials elsewhere.
public struct URLSessionOAuthTransport: OAuthHTTPTransport {
    private let session: URLSession
    /// The largest response body accepted, in bytes.
    public let maximumBodySize: Int

    /// Creates a transport over a fresh ephemeral session (no cookies, no cache).
    ///
    /// - Parameters:
    ///   - timeout: The request timeout.
    ///   - maximumBodySize: The largest response body accepted.
    public init(timeout: Duration = .seconds(30), maximumBodySize: Int = 1 << 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        self.session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        self.maximumBodySize = maximumBodySize
    }

    /// Creates a transport over the given session.
    public init(session: URLSession, maximumBodySize: Int = 1 << 20) {
        self.session = session
        self.maximumBodySize = maximumBodySize
    }

    /// Sends the request without caching or cookies and returns the whole (small) response.
    public func send(_ request: OAuthHTTPRequest) async throws -> OAuthHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw OAuthError(.transport, "The response to \(request.url.absoluteString) is not an HTTP response.")
        }
        guard data.count <= maximumBodySize else {
            throw OAuthError(
                .invalidResponse,
                "The response from \(request.url.absoluteString) is larger than \(maximumBodySize) bytes; "
                    + "check the endpoint URL.")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return OAuthHTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}

/// Declines every HTTP redirect, so a 3xx response is returned as it is.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
