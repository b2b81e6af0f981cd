import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WOPITestSupport

extension HarnessHTTP {
    /// Posts `fields` form-encoded.
    func postForm(
        _ url: String, _ fields: [(name: String, value: String)], headers: [String: String] = [:]
    ) async throws -> Web.Reply {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await send(.POST, url, headers: headers, body: Web.formEncode(fields))
    }
}

/// The OAuth shorthands: form encoding, Basic credentials, the sign-in page's fields.
enum Web {
    typealias Reply = TestHTTP.Reply

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

extension TestHTTP.Reply {
    /// The query items of the `Location` header, by name.
    var locationQuery: [String: String] {
        guard let location = header("location"), let components = URLComponents(string: location) else {
            return [:]
        }
        return Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The `name=value` part of `Set-Cookie`.
    var cookie: String? { header("set-cookie")?.split(separator: ";").first.map(String.init) }

    /// The hidden fields of the page's form, HTML entities decoded.
    var hiddenFields: [(name: String, value: String)] {
        let pattern = /<input type="hidden" name="([^"]*)" value="([^"]*)">/
        return text.matches(of: pattern).map { (Web.unescape(String($0.1)), Web.unescape(String($0.2))) }
    }
}
