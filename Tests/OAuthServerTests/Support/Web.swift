import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A tiny HTTP client for tests that never follows redirects, so a `302` and its `Location` can be checked.
enum Web {
    struct Reply: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer

        func header(_ name: String) -> String? { headers.first(name: name) }
        var text: String { String(buffer: body) }
        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] ?? [:]
        }

        /// The query items of the `Location` header, by name.
        var locationQuery: [String: String] {
            guard let location = header("location"), let components = URLComponents(string: location) else {
                return [:]
            }
            return Dictionary(
                (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first }
            )
        }

        /// The `name=value` part of `Set-Cookie`.
        var cookie: String? { header("set-cookie")?.split(separator: ";").first.map(String.init) }

        /// The hidden fields of the page's form, HTML entities decoded.
        var hiddenFields: [(name: String, value: String)] {
            let pattern = /<input type="hidden" name="([^"]*)" value="([^"]*)">/
            return text.matches(of: pattern).map { (Web.unescape(String($0.1)), Web.unescape(String($0.2))) }
        }
    }

    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    static func send(
        _ method: HTTPMethod, _ url: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let collected = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: collected)
    }

    static func get(_ url: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send(.GET, url, headers: headers)
    }

    /// Posts `fields` form-encoded.
    static func postForm(
        _ url: String, _ fields: [(name: String, value: String)], headers: [String: String] = [:]
    ) async throws -> Reply {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await send(.POST, url, headers: headers, body: formEncode(fields))
    }

    static func formEncode(_ fields: [(name: String, value: String)]) -> String {
        fields.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `Authorization: Basic` for a client (ID and secret form-encoded first, RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data((encode(id) + ":" + encode(secret)).utf8).base64EncodedString()
    }
}
