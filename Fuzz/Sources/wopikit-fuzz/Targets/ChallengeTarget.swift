import WOPIModels

extension FuzzTarget {
    /// The bootstrap challenge (`WWW-Authenticate: Bearer authorization_uri=…`): one header value, a list of them
    /// (one per line), and the generic RFC 9110 challenge list reader under both.
    static let challenge = FuzzTarget(name: "challenge") { input in
        let (choice, rest) = input.selector
        let text = rest.text
        switch choice % 3 {
        case 0:
            if let challenge = try? BootstrapChallenge.parse(text) {
                // What the parser produced must read back: the host sends `headerValue` to clients.
                fuzzCheck((try? BootstrapChallenge.parse(challenge.headerValue)) != nil, "headerValue does not parse")
            }
        case 1: _ = try? BootstrapChallenge.parse(headerValues: text.split(separator: "\n").map(String.init))
        default: _ = try? AuthenticationChallenge.parseList(text)
        }
    }

    /// The challenge's `UrlSchemes` value (base64 or plain JSON of platform lists, Android triples).
    static let urlSchemes = FuzzTarget(name: "url-schemes") { input in
        let (choice, rest) = input.selector
        let text = rest.text
        if let schemes = try? URLSchemes(encodedValue: text) {
            _ = schemes.platforms
            fuzzCheck((try? URLSchemes(encodedValue: schemes.encodedValue)) != nil, "encodedValue does not parse")
        }
        if choice & 1 == 1 {
            // The same text as a list of entries of one platform, for `init(platforms:)`.
            let entries = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            _ = try? URLSchemes(platforms: ["Android": entries, "iOS": entries])
        }
    }
}
