import WOPIHTTPEdge
import WOPIServer

@testable import WOPIModels

extension FuzzTarget {
    /// Form and query decoding (`WOPIModels.PercentEncoding`, `WOPIServer.WOPIQuery`): every request's query and
    /// every OAuth form body. What decodes must encode and decode back to the same pairs.
    static let formQuery = FuzzTarget(name: "form-query") { input in
        let text = input.text
        _ = PercentEncoding.decode(text)
        let query = WOPIQuery(encoded: Substring(text))
        _ = query["access_token"]
        if let pairs = PercentEncoding.decodePairs(text) {
            fuzzCheck(query.isWellFormed && query.pairs.count == pairs.count, "WOPIQuery disagrees with decodePairs")
            let again = PercentEncoding.decodePairs(PercentEncoding.encodePairs(pairs))
            fuzzCheck(
                again.map { $0.map(\.name) == pairs.map(\.name) && $0.map(\.value) == pairs.map(\.value) } == true,
                "form round trip of \(text.debugDescription)")
        }
    }
}
