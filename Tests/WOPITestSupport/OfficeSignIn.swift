public import Foundation
import NIOCore
import NIOHTTP1

/// Office's side of the OAuth code flow against `wopi-host serve --demo` processes, over plain HTTP: the demo
/// `office` client (confidential, redirect `https://localhost`, its secret in the data folder of the host that
/// seeded it) signs the demo user in.
public struct OfficeSignIn: Sendable {
    /// The `office` client's secret.
    public let secret: String

    /// The client of the demo seeded in `dataFolder`.
    public init(dataFolder: URL) throws {
        secret = try String(
            contentsOf: dataFolder.appendingPathComponent("secrets/office-client-secret"), encoding: .utf8
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Loads the sign-in page of `base`, submits it (hidden fields and CSRF cookie) as demo/demo and returns the
    /// authorization code of the redirect.
    public func code(at base: String) async throws -> String {
        let reply = try await signIn(at: base, password: "demo")
        guard reply.status == 302, let location = reply.header("location").flatMap(URLComponents.init(string:)),
            let code = location.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw HostProcessError("sign-in: \(reply.status) \(reply.text)") }
        return code
    }

    /// Loads the sign-in page of `base` and submits it (hidden fields and CSRF cookie) as the demo user with
    /// `password`: the reply is a redirect with a code, or the page again.
    public func signIn(at base: String, password: String) async throws -> TestHTTP.Reply {
        let query = "response_type=code&client_id=office&redirect_uri=https%3A%2F%2Flocalhost&state=st"
        let page = try await TestHTTP.send(.GET, "\(base)/oauth2/authorize?\(query)")
        guard page.status == 200 else { throw HostProcessError("sign-in page: \(page.status) \(page.text)") }
        let hidden = page.text.matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
            (Self.unescape(String($0.1)), Self.unescape(String($0.2)))
        }
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let cookie = page.header("set-cookie")?.split(separator: ";").first {
            headers.append(("Cookie", String(cookie)))
        }
        let form = Self.formEncode(hidden + [("username", "demo"), ("password", password)])
        return try await TestHTTP.send(
            .POST, "\(base)/oauth2/authorize", headers: headers, body: ByteBuffer(string: form))
    }

    /// `POST base/oauth2/token` with `fields`, authenticated as Office (`client_secret_basic`).
    public func token(at base: String, _ fields: [(String, String)]) async throws -> TestHTTP.Reply {
        let basic = "Basic " + Data("office:\(secret)".utf8).base64EncodedString()
        return try await TestHTTP.send(
            .POST, "\(base)/oauth2/token",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", basic)],
            body: ByteBuffer(string: Self.formEncode(fields)))
    }

    /// Redeems `code` at `base`.
    public func redeem(_ code: String, at base: String) async throws -> TestHTTP.Reply {
        try await token(
            at: base, [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "https://localhost")])
    }

    /// Uses `refreshToken` at `base`.
    public func refresh(_ refreshToken: String, at base: String) async throws -> TestHTTP.Reply {
        try await token(at: base, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// The status of the bootstrapper of `base` for the access token: 200 when accepted, 401 when not.
    public func bootstrapStatus(_ accessToken: String, at base: String) async throws -> Int {
        try await TestHTTP.send(.GET, "\(base)/wopibootstrapper", headers: [("Authorization", "Bearer \(accessToken)")])
            .status
    }

    /// The fields of a token response.
    public static func fields(_ reply: TestHTTP.Reply) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 as? String }
    }

    private static func formEncode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return fields.map {
            ($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
