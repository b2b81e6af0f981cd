import Foundation

@testable import WOPIOAuth

extension FuzzTarget {
    /// Token endpoint responses (RFC 6749 §5.1 and §5.2), as `wopi login` reads them, and the token set made from
    /// a success.
    static let tokenResponse = FuzzTarget(name: "token-response") { input in
        let decoder = JSONDecoder()
        if let response = try? decoder.decode(TokenResponse.self, from: input.data) {
            _ = response.tokenSet(
                issuedAt: Date(timeIntervalSince1970: 1_700_000_000), previous: nil, tokenEndpoint: nil,
                sessionContext: nil)
        }
        _ = try? decoder.decode(TokenErrorResponse.self, from: input.data)
    }
}
