import Foundation

/// Percent-encoding helpers (RFC 3986) shared by the URL codecs of this module.
enum PercentEncoding {
    /// RFC 3986 unreserved characters: `A–Z a–z 0–9 - . _ ~`.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Encodes every character outside `allowed` as UTF-8 `%HH`.
    static func encode(_ text: String, allowing allowed: CharacterSet = unreserved) -> String {
        // addingPercentEncoding only fails for unpaired surrogates, which a Swift String cannot hold.
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Decodes `%HH` sequences; with `plusIsSpace`, `+` means a space (HTML form encoding).
    ///
    /// Returns `nil` when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    static func decode(_ text: String, plusIsSpace: Bool = false) -> String? {
        let text = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : text
        guard text.contains("%") else { return text }
        return text.removingPercentEncoding
    }

    /// Splits a query string (`a=1&b=2`, no leading `?`) into decoded name–value pairs in order.
    ///
    /// Empty segments are skipped; a segment without `=` has an empty value. `+` means a space.
    static func decodeQuery(_ query: String) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for segment in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(String(parts[0]), plusIsSpace: true),
                let value = decode(parts.count > 1 ? String(parts[1]) : "", plusIsSpace: true)
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Joins name–value pairs into a query string, encoding everything outside the unreserved set.
    static func encodeQuery(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }
}
