/// `application/x-www-form-urlencoded` encoding and decoding, for query strings and token-endpoint bodies.
enum FormEncoding {
    /// The RFC 3986 unreserved characters, the only ones sent unescaped.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Percent-encodes every byte of the UTF-8 form of `value` except the unreserved characters.
    static func escape(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += hex.count == 1 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return result
    }

    /// Encodes name-value pairs in order as `a=b&c=d`.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes one component: `+` is a space, `%XX` a byte; `nil` if an escape is malformed or the bytes are not
    /// UTF-8.
    static func unescape(_ component: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        var iterator = component.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `a=b&c=d` into ordered pairs; empty segments are skipped and a segment without `=` has an empty value.
    static func decode(_ query: Substring) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for segment in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(parts[0]) else { return nil }
            guard let value = parts.count > 1 ? unescape(parts[1]) : "" else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
