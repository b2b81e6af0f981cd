import Foundation

/// `application/x-www-form-urlencoded` (RFC 6749 Appendix B) and RFC 3986 helpers for the OAuth endpoints.
enum FormEncoding {
    /// Whether `scalar` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~": true
        default: false
        }
    }

    private static let unreservedSet = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but unreserved characters (so `+`, `&`, `=` and spaces are always encoded).
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreservedSet) ?? text
    }

    /// Decodes one form-encoded name or value (`+` is a space); `nil` when a `%` escape is malformed.
    static func decode(_ text: Substring) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.contains("%") ? spaced.removingPercentEncoding : spaced
    }

    /// Decodes a form body or query into name–value pairs, in order; `nil` when malformed.
    static func decodePairs(_ text: String) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for segment in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Joins pairs into a query string.
    static func encodePairs(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Appends `pairs` to the query of `uri` (which has no fragment).
    static func appendQuery(_ pairs: [(name: String, value: String)], to uri: String) -> String {
        let separator = uri.contains("?") ? (uri.hasSuffix("?") || uri.hasSuffix("&") ? "" : "&") : "?"
        return uri + separator + encodePairs(pairs)
    }
}
