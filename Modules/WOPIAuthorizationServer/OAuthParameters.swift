import Foundation
import WOPIFoundation
import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

/// The parameters of an OAuth request (query or form body), looked up by case-insensitive name.
///
/// Office sends `Build=` and `Platform=` capitalised in some versions (Docs/wopi-protocol.md §10.1), so every name is
/// folded to lower case. A parameter sent twice is recorded in ``repeatedNames``: RFC 6749 §3.1 forbids repeats.
struct OAuthParameters: Sendable {
    private var values: [String: String] = [:]
    /// Names (lower-cased) that appeared more than once.
    private(set) var repeatedNames: [String] = []

    init(_ pairs: [(name: String, value: String)]) {
        for (name, value) in pairs {
            let key = name.lowercased()
            if values[key] != nil { repeatedNames.append(key) } else { values[key] = value }
        }
    }

    /// The parameters of a request's query, repeats kept so they can be refused.
    init(_ query: WOPIQuery) {
        self.init(query.pairs)
    }

    /// The value of `name`, `nil` when absent or empty (RFC 6749 §3.1: empty parameters are treated as omitted).
    subscript(_ name: String) -> String? {
        guard let value = values[name.lowercased()], !value.isEmpty else { return nil }
        return value
    }

    /// The form body of `request`, at most `limit` bytes; `nil` when it is not form-encoded or is malformed.
    static func form(of request: WOPIRequest, limit: Int = 64 * 1024) async throws -> OAuthParameters? {
        try await request.form(limit: limit).map { OAuthParameters($0.pairs) }
    }
}
