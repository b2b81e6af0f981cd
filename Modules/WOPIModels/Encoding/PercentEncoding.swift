/// Percent-encoding (RFC 3986) and `application/x-www-form-urlencoded` name–value pairs: the one codec that the
/// URL types of this module, the OAuth client and the authorization server share.
///
/// Encoding leaves only the allowed bytes (by default the RFC 3986 unreserved characters `A–Z a–z 0–9 - . _ ~`)
/// and writes every other UTF-8 byte as `%HH`, so `+`, `&`, `=` and spaces are always escaped. Decoding is strict:
/// a `%` not followed by two hex digits, or bytes that are not UTF-8, give `nil`.
public enum PercentEncoding {
    /// Whether `byte` is an RFC 3986 unreserved character.
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether every character of `text` is unreserved (an OAuth client ID, a PKCE verifier).
    package static func isUnreserved(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy(isUnreserved)
    }

    /// Encodes every UTF-8 byte of `text` for which `allowed` is false as `%HH` (upper-case hex).
    public static func encode(_ text: some StringProtocol, allowing allowed: (UInt8) -> Bool = isUnreserved) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `%HH` escapes; with `plusIsSpace` (form encoding), `+` is a space.
    ///
    /// - Returns: `nil` when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    @inlinable  // specialised where it is called: every request's path and query pairs are substrings
    package static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        // Strings and substrings of native strings lend their bytes in place.
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(utf8: $0, plusIsSpace: plusIsSpace) }) {
            return decoded
        }
        return Array(text.utf8).withUnsafeBufferPointer { decode(utf8: $0, plusIsSpace: plusIsSpace) }
    }

    /// `decode(_:plusIsSpace:)` on bytes that are UTF-8 already. Not generic, so that every request's path and
    /// query run specialised code; text without escapes is copied as is.
    @usableFromInline
    static func decode(utf8 input: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        let escapes = input.contains { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }
        guard escapes else { return String(decoding: input, as: UTF8.self) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: input.count) { output in
            var written = 0
            var index = 0
            while index < input.count {
                let byte = input[index]
                index += 1
                switch byte {
                case UInt8(ascii: "+") where plusIsSpace:
                    output[written] = UInt8(ascii: " ")
                case UInt8(ascii: "%"):
                    guard index + 2 <= input.count, let high = hexValue(input[index]),
                        let low = hexValue(input[index + 1])
                    else { return nil }
                    index += 2
                    output[written] = high << 4 | low
                default:
                    output[written] = byte
                }
                written += 1
            }
            return String(validating: UnsafeBufferPointer(rebasing: output[..<written]), as: UTF8.self)
        }
    }

    /// Splits a query or form body (`a=1&b=2`, no leading `?`) into its pairs as sent, still encoded, in order.
    ///
    /// Empty segments are skipped; a segment without `=` has an empty value.
    package static func splitPairs(_ query: Substring) -> [(name: Substring, value: Substring)] {
        var pairs: [(name: Substring, value: Substring)] = []
        forEachPair(query) { pairs.append(($0, $1)) }
        return pairs
    }

    /// Calls `body` with each pair of a query or form body as sent, still encoded, in order (no array of them).
    ///
    /// Empty segments are skipped; a segment without `=` has an empty value. Pairs are split at the bytes `&` and
    /// `=`, as the URL Standard's form parser does, without walking the text character by character.
    package static func forEachPair(_ query: Substring, _ body: (_ name: Substring, _ value: Substring) -> Void) {
        query.forEachField(separatedBy: UInt8(ascii: "&"), omittingEmpty: true) { segment in
            if let equals = segment.utf8.firstIndex(of: UInt8(ascii: "=")) {
                body(segment[..<equals], segment[segment.utf8.index(after: equals)...])
            } else {
                body(segment, segment[segment.endIndex...])
            }
        }
    }

    /// Splits a form-encoded query or body (`a=1&b=2`, no leading `?`) into decoded pairs, in order, repeats kept.
    ///
    /// Empty segments are skipped; a segment without `=` has an empty value; `+` is a space.
    /// - Returns: `nil` when any name or value is malformed.
    package static func decodePairs(_ query: some StringProtocol) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for (rawName, rawValue) in splitPairs(Substring(query)) {
            guard let name = decode(rawName, plusIsSpace: true), let value = decode(rawValue, plusIsSpace: true)
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Joins pairs into a form-encoded query (`a=1&b=2`), escaping everything but unreserved characters.
    package static func encodePairs(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Appends `pairs` to the query of `uri` (which has no fragment).
    package static func appendQuery(_ pairs: [(name: String, value: String)], to uri: String) -> String {
        let separator = uri.contains("?") ? (uri.hasSuffix("?") || uri.hasSuffix("&") ? "" : "&") : "?"
        return uri + separator + encodePairs(pairs)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
