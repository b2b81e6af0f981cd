import Foundation
import NIOHTTP1

/// The run of one validator test case: sends its requests the way the validator does, applies their rules,
/// keeps saved state, and stops at the first failing request (the validator then runs the cleanup requests).
final class CaseRun {
    /// Thrown to end a test case at a failed request; the problems are already recorded.
    struct StepFailed: Error {}

    let target: ValidatorTarget
    /// The validator's saved state (`SaveState`), by key.
    var state: [String: String] = [:]
    /// What went wrong, each with the exchange that showed it.
    private(set) var problems: [String] = []

    init(target: ValidatorTarget) { self.target = target }

    /// The validator's `User-Agent` for the `OfficeNativeClient` category.
    static let userAgent = "Microsoft Office WOPI Validator/1.0"

    /// Sends `operation` and checks `rules` (default: status 200).
    ///
    /// - Parameters:
    ///   - overrideURL: the request's `OverrideUrl`, a URL the host returned (used as is, plus the path suffix;
    ///     its `access_token` is also the bearer token). Without it, the validator builds
    ///     `WOPISrc + suffix + ?access_token=…&access_token_ttl=…`.
    ///   - token: a replacement access token (the `AccessToken` mutator, e.g. `INVALID`).
    ///   - save: state to keep from the reply: `(key, source)`; sources are JSON paths or `header:NAME`.
    ///   - proofKey: the `ProofKey` mutator, in a signed run (``ValidatorTarget/proofKeys``).
    @discardableResult
    func send(
        _ operation: WopiOperation, overrideURL: String? = nil, token mutatedToken: String? = nil,
        expect rules: [ResponseRule] = [], save: [(String, String)] = [], proofKey: ProofKeyMutation = .init()
    ) async throws -> Exchange {
        var url: String
        var token: String
        if let overrideURL {
            guard var components = URLComponents(string: overrideURL) else {
                return try fail("\(operation.name): the override URL '\(Exchange.redacted(overrideURL))' is not a URL")
            }
            components.percentEncodedPath += operation.pathSuffix
            url = components.string ?? overrideURL
            token = components.queryItems?.first { $0.name == "access_token" }?.value ?? ""
        } else {
            guard !operation.needsOverrideURL else {
                return try fail("\(operation.name): no URL saved for it (an earlier request failed)")
            }
            url =
                target.wopiSrc + operation.pathSuffix + "?access_token=" + Self.formEncoded(target.accessToken)
                + "&access_token_ttl=\(target.accessTokenTTL)"
            token = target.accessToken
        }
        if let mutatedToken {
            url = Self.replacingAccessToken(in: url, with: mutatedToken)
            token = mutatedToken
        }
        let headers =
            operation.headers + [("Authorization", "Bearer " + token), ("User-Agent", Self.userAgent)]
            + (try proofKey.headers(signedBy: target.proofKeys, url: url, token: token))
        let reply = try await HTTP.send(operation.method, url, headers: headers, body: operation.body)
        let exchange = Exchange(
            operation: operation.name, method: operation.method, url: url, requestHeaders: headers,
            requestBodySize: operation.body?.count ?? 0, reply: reply)
        for (key, source) in save { saveState(key, from: source, of: exchange) }
        return try check(exchange, rules.isEmpty ? [.ok] : rules)
    }

    /// `GetFromFileUrl`: a GET of `url` exactly as the host gave it, with no header of the validator's: no access
    /// token, no `Authorization` and no proof (requests to `FileUrl` are never signed; facts from
    /// `GetFromFileUrlRequest.cs`).
    @discardableResult
    func getFromFileUrl(_ url: String, expect rules: [ResponseRule]) async throws -> Exchange {
        let reply = try await HTTP.send(.GET, url)
        let exchange = Exchange(
            operation: "GetFromFileUrl", method: .GET, url: url, requestHeaders: [], requestBodySize: 0, reply: reply)
        return try check(exchange, rules)
    }

    /// Records the problems of `exchange` under `rules` and ends the case when there are any.
    private func check(_ exchange: Exchange, _ rules: [ResponseRule]) throws -> Exchange {
        let found = rules.flatMap { $0.problems(exchange) }
        if !found.isEmpty {
            problems.append(found.map { "• \($0)" }.joined(separator: "\n") + "\n" + exchange.description)
            throw StepFailed()
        }
        return exchange
    }

    /// The validator's `Delay`: moves the host's clock on by `seconds` (``ValidatorTarget/advanceClock``); a target
    /// without a clock of its own fails the case rather than sleeping.
    func delay(seconds: Double) async throws {
        guard let advance = target.advanceClock else {
            return try fail("Delay of \(seconds) s: this host has no test clock to advance")
        }
        await advance(seconds)
    }

    /// Records a problem that is not tied to a reply and ends the case.
    func fail<T>(_ message: String) throws -> T {
        problems.append("• \(message)")
        throw StepFailed()
    }

    /// The saved state under `key` (e.g. for `OverrideUrl="$State:key"`); the case fails, as in the validator,
    /// when no earlier request saved it.
    func saved(_ key: String) throws -> String {
        guard let value = state[key] else { return try fail("no saved state '\(key)' (an earlier request failed)") }
        return value
    }

    /// The saved boolean under `key` (an `ExpectedStateKey`).
    func bool(_ key: String) -> Bool? { state[key].flatMap { Bool($0.lowercased()) } }

    private func saveState(_ key: String, from source: String, of exchange: Exchange) {
        if source.hasPrefix("header:") {
            if let value = exchange.header(String(source.dropFirst("header:".count))) { state[key] = value }
            return
        }
        switch exchange.json?.select(source) {
        case .string(let value)?: state[key] = value
        case .bool(let value)?: state[key] = value ? "True" : "False"
        case .integer(let value)?: state[key] = String(value)
        default: break
        }
    }

    /// `UrlHelper.UrlKeyValueEncode`, close enough for tokens: everything but unreserved characters escaped.
    static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.!*()")))
            ?? text
    }

    static func replacingAccessToken(in url: String, with token: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        var items = components.percentEncodedQueryItems ?? []
        items.removeAll { $0.name == "access_token" }
        items.insert(URLQueryItem(name: "access_token", value: formEncoded(token)), at: 0)
        components.percentEncodedQueryItems = items
        return components.string ?? url
    }
}
