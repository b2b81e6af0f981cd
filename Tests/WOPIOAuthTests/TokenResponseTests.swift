import Foundation
import Testing

@testable import WOPIOAuth

@Suite("Token response parsing")
struct TokenResponseTests {
    let issuedAt = Date(timeIntervalSince1970: 1_000_000)

    private func tokens(_ json: String, previous: TokenSet? = nil) throws -> TokenSet {
        try JSONDecoder().decode(TokenResponse.self, from: Data(json.utf8))
            .tokenSet(issuedAt: issuedAt, previous: previous, tokenEndpoint: nil, sessionContext: nil)
    }

    @Test func acceptsExpiresInAsNumberOrString() throws {
        let number = try tokens(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#)
        #expect(number.expiresAt == issuedAt.addingTimeInterval(3600))
        let office = try tokens(#"{"access_token":"123dfevewafe","token_type":"bearer","expires_in":"86400"}"#)
        #expect(office.expiresAt == issuedAt.addingTimeInterval(86400))
        #expect(office.tokenType == "bearer")
        let never = try tokens(#"{"access_token":"a","token_type":"bearer","expires_in":"0"}"#)
        #expect(never.expiresAt == nil)
        #expect(!never.isExpired(at: .distantFuture))
        let absent = try tokens(#"{"access_token":"a"}"#)
        #expect(absent.expiresAt == nil)
        #expect(absent.tokenType == "Bearer")
    }

    @Test func rejectsMalformedResponses() {
        #expect(throws: (any Error).self) { try tokens(#"{"token_type":"bearer"}"#) }
        #expect(throws: (any Error).self) { try tokens(#"{"access_token":7}"#) }
        #expect(throws: (any Error).self) { try tokens(#"["access_token"]"#) }
    }

    /// Malformed optional members are left out, as if absent, and named for a warning (issue 16).
    @Test func ignoresMalformedOptionalMembers() throws {
        let json =
            #"{"access_token":"a","expires_in":"soon","scope":["x","y"],"refresh_token":5,"token_type":"bearer"}"#
        let response = try JSONDecoder().decode(TokenResponse.self, from: Data(json.utf8))
        #expect(response.accessToken == "a" && response.tokenType == "bearer")
        #expect(response.expiresIn == nil && response.scope == nil && response.refreshToken == nil)
        #expect(response.ignored.count == 3, "\(response.ignored)")
        #expect(response.ignored.contains { $0.contains("expires_in") })
        let set = try tokens(json, previous: TokenSet(accessToken: "old", refreshToken: "r1", scope: "wopi"))
        #expect(set.expiresAt == nil && set.refreshToken == "r1" && set.scope == "wopi")
        let clean = try JSONDecoder().decode(
            TokenResponse.self, from: Data(#"{"access_token":"a","expires_in":null,"scope":null}"#.utf8))
        #expect(clean.ignored.isEmpty)
    }

    @Test func refreshKeepsWhatTheServerLeftOut() throws {
        let previous = TokenSet(accessToken: "old", refreshToken: "r1", scope: "wopi")
        let refreshed = try tokens(#"{"access_token":"new","expires_in":60}"#, previous: previous)
        #expect(refreshed.refreshToken == "r1")
        #expect(refreshed.scope == "wopi")
        let rotated = try tokens(#"{"access_token":"new","refresh_token":"r2","scope":"x"}"#, previous: previous)
        #expect(rotated.refreshToken == "r2")
        #expect(rotated.scope == "x")
    }

    @Test func descriptionHidesTokens() {
        let set = TokenSet(accessToken: "secret-access", refreshToken: "secret-refresh", idToken: "secret-id")
        #expect(!"\(set)".contains("secret"))
        #expect(set.authorizationHeaderValue == "Bearer secret-access")
    }

    @Test func expiryLeeway() {
        let set = TokenSet(accessToken: "a", expiresAt: issuedAt.addingTimeInterval(100))
        #expect(!set.isExpired(at: issuedAt))
        #expect(set.isExpired(at: issuedAt, leeway: .seconds(100)))
        #expect(set.isExpired(at: issuedAt.addingTimeInterval(100)))
    }
}
