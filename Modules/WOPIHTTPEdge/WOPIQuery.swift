import WOPIModels

/// The query of a request, lossless: every name–value pair in the order sent, repeats kept, decoded once with
/// form rules (`%HH` escapes, `+` as a space).
///
/// WOPI parsing reads the first value of a name; OAuth parsing reads every pair, so that a repeated parameter is
/// refused (RFC 6749 §3.1); proof keys use ``WOPIRequest/target``, the query exactly as it was sent.
public struct WOPIQuery: Sendable {
    /// The decoded pairs, in order.
    public private(set) var pairs: [(name: String, value: String)]
    /// Whether every pair decoded; a pair with a malformed escape or bytes that are not UTF-8 is left out of
    /// ``pairs``, and this is `false`.
    public private(set) var isWellFormed: Bool

    /// Decodes a query string as sent (without the leading `?`).
    public init(encoded query: Substring) {
        var pairs: [(name: String, value: String)] = []
        var isWellFormed = true
        PercentEncoding.forEachPair(query) { rawName, rawValue in
            if let name = PercentEncoding.decode(rawName, plusIsSpace: true),
                let value = PercentEncoding.decode(rawValue, plusIsSpace: true)
            {
                pairs.append((name, value))
            } else {
                isWellFormed = false
            }
        }
        self.pairs = pairs
        self.isWellFormed = isWellFormed
    }

    /// A query of the given decoded pairs.
    public init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
        self.isWellFormed = true
    }

    /// The first value of `name` (case-sensitive), `nil` when absent.
    public subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }
}
