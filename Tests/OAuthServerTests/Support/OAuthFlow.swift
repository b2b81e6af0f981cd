import Crypto
import Foundation
import Testing
import WOPIAuthorizationServer
import WOPITestSupport

/// A PKCE verifier and its S256 challenge, computed independently of the server's code.
struct PKCEPair {
    let verifier: String
    let challenge: String

    init(
        verifier: String = String(repeating: "v", count: 20) + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    ) {
        self.verifier = verifier
        challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension TestAuthServer {
    /// The query of an authorization request.
    static func query(
        client: String, redirectURI: String?, state: String? = "st-1", pkce: PKCEPair? = nil,
        method: String? = "S256", extra: [(name: String, value: String)] = []
    ) -> [(name: String, value: String)] {
        var query: [(name: String, value: String)] = [("response_type", "code"), ("client_id", client)]
        if let redirectURI { query.append(("redirect_uri", redirectURI)) }
        if let state { query.append(("state", state)) }
        if let pkce {
            query.append(("code_challenge", pkce.challenge))
            if let method { query.append(("code_challenge_method", method)) }
        }
        return query + extra
    }

    /// `GET /oauth2/authorize?query`.
    func openSignIn(_ query: [(name: String, value: String)]) async throws -> Web.Reply {
        try await get(authorizeURL + "?" + Web.formEncode(query))
    }

    /// Submits the sign-in form of `page` as a browser would (hidden fields and cookie included).
    func submit(
        _ page: Web.Reply, username: String = "ana", password: String = TestAuthServer.password,
        alter: ([(name: String, value: String)]) -> [(name: String, value: String)] = { $0 }, sendCookie: Bool = true,
        cookie: String? = nil
    ) async throws -> Web.Reply {
        let fields = alter(page.hiddenFields + [("username", username), ("password", password)])
        var headers: [String: String] = [:]
        if sendCookie, let cookie = cookie ?? page.cookie { headers["Cookie"] = cookie }
        return try await postForm(authorizeURL, fields, headers: headers)
    }

    /// Signs Ana in and returns the final redirect's query (`code`, `state`, `iss`, …).
    func authorize(_ query: [(name: String, value: String)]) async throws -> [String: String] {
        let page = try await openSignIn(query)
        try #require(page.status == 200, "sign-in page: \(page.status) \(page.text)")
        let reply = try await submit(page)
        try #require(reply.status == 302, "sign-in: \(reply.status) \(reply.text)")
        return reply.locationQuery
    }

    /// A code for Office (confidential, `https://localhost`).
    func officeCode(state: String = "st-1") async throws -> String {
        let result = try await authorize(Self.query(client: "office", redirectURI: "https://localhost", state: state))
        return try #require(result["code"])
    }

    /// Redeems a code for Office with `client_secret_basic`.
    func redeemOfficeCode(_ code: String, redirectURI: String = "https://localhost") async throws -> Web.Reply {
        try await postForm(
            tokenURL, [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)],
            headers: ["Authorization": Web.basic("office", Self.officeSecret)])
    }

    /// Refreshes with Office's credentials.
    func refreshOffice(_ refreshToken: String) async throws -> Web.Reply {
        try await postForm(
            tokenURL, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            headers: ["Authorization": Web.basic("office", Self.officeSecret)])
    }

    /// Signs in as Office and returns the token response's JSON.
    func officeTokens() async throws -> [String: Any] {
        let reply = try await redeemOfficeCode(try await officeCode())
        try #require(reply.status == 200, "token: \(reply.status) \(reply.text)")
        return try reply.json()
    }

    /// Whether the server accepts `token` as an access token.
    func isValid(_ token: Any?) async throws -> Bool {
        guard let token = token as? String else { return false }
        return try await server.userID(forAccessToken: token) != nil
    }
}
