import Foundation
import Testing
import WOPIModels

@Suite struct BootstrapChallengeTests {
    static let digestExample =
        #"Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="tpcontoso",UrlSchemes="%7B%22iOS%22%3A%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%22Android%22%3A%5B%22100%22%2C%22com.contoso.app%22%2C%22com.contoso.app.AuthActivity%22%5D%7D""#

    static let exampleSchemes = URLSchemes(
        iOS: ["contoso", "contoso-EMM"],
        android: [
            AndroidAuthActivity(
                minimumVersionCode: 100, packageName: "com.contoso.app",
                authActivityName: "com.contoso.app.AuthActivity")
        ])

    static let example = BootstrapChallenge(
        authorizationURI: URL(string: "https://contoso.com/api/oauth2/authorize")!,
        tokenIssuanceURI: URL(string: "https://contoso.com/api/oauth2/token")!,
        providerID: "tpcontoso", urlSchemes: exampleSchemes)

    @Test func buildsTheDigestExampleExactly() {
        #expect(Self.example.headerValue == Self.digestExample)
    }

    @Test func parsesTheDigestExample() throws {
        let parsed = try BootstrapChallenge.parse(Self.digestExample)
        #expect(parsed == Self.example)
        #expect(parsed.urlSchemes?.android.first?.minimumVersionCode == 100)
    }

    @Test func leavesOutAbsentOptionalParameters() throws {
        let minimal = BootstrapChallenge(
            authorizationURI: URL(string: "https://a.example/auth")!,
            tokenIssuanceURI: URL(string: "https://a.example/token")!)
        #expect(
            minimal.headerValue
                == #"Bearer authorization_uri="https://a.example/auth",tokenIssuance_uri="https://a.example/token""#)
        #expect(try BootstrapChallenge.parse(minimal.headerValue) == minimal)
    }

    @Test func parsesTolerantly() throws {
        let spaced =
            #"bearer  Authorization_URI = "https://a.example/auth" , tokenissuance_uri=https://a.example/t?x=1 ,  PROVIDERID=tp_contoso"#
        let parsed = try BootstrapChallenge.parse(spaced)
        #expect(parsed.authorizationURI.absoluteString == "https://a.example/auth")
        #expect(parsed.tokenIssuanceURI.absoluteString == "https://a.example/t?x=1")
        #expect(parsed.providerID == "tp_contoso")
        #expect(parsed.urlSchemes == nil)
    }

    @Test func findsBearerAmongOtherChallenges() throws {
        let header =
            #"Basic realm="x, y", Negotiate, Bearer authorization_uri="https://a.example/auth",tokenIssuance_uri="https://a.example/token", Digest realm="d", nonce="n""#
        let parsed = try BootstrapChallenge.parse(header)
        #expect(parsed.tokenIssuanceURI.absoluteString == "https://a.example/token")
        let split = try BootstrapChallenge.parse(headerValues: [
            #"Basic realm="r""#,
            #"Bearer authorization_uri="https://a.example/auth",tokenIssuance_uri="https://a.example/token""#,
        ])
        #expect(split == parsed)
    }

    @Test func readsQuotedValuesWithCommasAndEscapes() throws {
        let challenges = try AuthenticationChallenge.parseList(
            #"Bearer realm="a, \"b\" \\ c", error=invalid_token, Basic dXNlcjpwYXNz==, Negotiate"#)
        #expect(challenges.count == 3)
        #expect(challenges[0][parameter: "REALM"] == #"a, "b" \ c"#)
        #expect(challenges[0][parameter: "error"] == "invalid_token")
        #expect(challenges[1].hasScheme("basic") && challenges[1].token68 == "dXNlcjpwYXNz==")
        #expect(challenges[2].scheme == "Negotiate" && challenges[2].parameters.isEmpty)
    }

    @Test func quotesValuesThatNeedEscaping() throws {
        var challenge = Self.example
        challenge.providerID = #"odd"id\x"#
        challenge.urlSchemes = nil
        #expect(challenge.headerValue.contains(#"providerId="odd\"id\\x""#))
        #expect(try BootstrapChallenge.parse(challenge.headerValue) == challenge)
    }

    @Test(arguments: [
        "",
        "Basic realm=\"x\"",
        "Bearer realm=\"unclosed",
        "authorization_uri=\"https://a/b\"",
        #"Bearer tokenIssuance_uri="https://a.example/t""#,
        #"Bearer authorization_uri="not a url",tokenIssuance_uri="https://a.example/t""#,
        #"Bearer authorization_uri="https://a.example/a",UrlSchemes="%7Bnope""#,
    ])
    func rejectsMalformedChallenges(header: String) {
        #expect(throws: WOPIFormatError.self) { try BootstrapChallenge.parse(header) }
    }

    /// Optional parameters that cannot be read become warnings; the required ones are still read (issue 16).
    @Test(arguments: [
        (#"UrlSchemes="%7Bnope""#, "UrlSchemes"),
        (#"UrlSchemes="%7B%22Android%22%3A%5B%22x%22%5D%7D""#, "UrlSchemes"),
        (#"UrlSchemes="%7B%22Android%22%3A%5B%22100%22%2C%22com.contoso.app%22%5D%7D""#, "triples"),
        (#"UrlSchemes="%5B%22x%22%5D""#, "UrlSchemes"),
        (#"providerId="tp contoso""#, "providerId"),
    ])
    func ignoresMalformedOptionalParameters(parameter: String, warning: String) throws {
        let header =
            #"Bearer authorization_uri="https://a.example/a",tokenIssuance_uri="https://a.example/t","# + parameter
        let parsed = try BootstrapChallenge.parse(header)
        #expect(parsed.authorizationURI.absoluteString == "https://a.example/a")
        #expect(parsed.tokenIssuanceURI.absoluteString == "https://a.example/t")
        #expect(parsed.urlSchemes == nil && parsed.providerID == nil)
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.contains(warning) == true, "\(parsed.warnings)")
        #expect(try BootstrapChallenge.parse(Self.digestExample).warnings.isEmpty)
    }

    @Test func urlSchemesRoundTripAndTolerance() throws {
        let schemes = URLSchemes(
            iOS: ["a", "b"],
            android: [AndroidAuthActivity(minimumVersionCode: 7, packageName: "p", authActivityName: "q")],
            otherPlatforms: ["UWP": ["u1"], "Zeta": []])
        #expect(schemes.json == #"{"iOS":["a","b"],"Android":["7","p","q"],"UWP":["u1"]}"#)
        #expect(
            try URLSchemes(encodedValue: schemes.encodedValue)
                == URLSchemes(
                    iOS: ["a", "b"], android: schemes.android, otherPlatforms: ["UWP": ["u1"]]))
        #expect(try URLSchemes(encodedValue: #"{"ios":["x"]}"#).iOS == ["x"])
        #expect(throws: WOPIFormatError.self) { try URLSchemes(encodedValue: #"{"Android":["1","p"]}"#) }
        #expect(throws: WOPIFormatError.self) { try URLSchemes(encodedValue: #"{"Android":["v1","p","q"]}"#) }
        #expect(throws: WOPIFormatError.self) { try URLSchemes(encodedValue: #"["x"]"#) }
    }

    @Test func randomHeaderValuesNeverCrash() {
        let pool = Array("Bearer a=\"\\, =\t\"xyz_BASIC")
        for _ in 0..<2000 {
            let text = String((0..<Int.random(in: 0...40)).map { _ in pool.randomElement()! })
            _ = try? AuthenticationChallenge.parseList(text)
            _ = try? BootstrapChallenge.parse(text)
        }
    }
}
