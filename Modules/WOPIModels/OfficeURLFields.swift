import Foundation

/// The `<scheme>:<mode>|key|value|key|value…` layout shared by ``OfficeOpenURL`` and ``OfficePassbackURL``.
///
/// Values are percent-encoded with RFC 3986's query characters minus `+`: letters, digits, `-._~` and
/// `:/?@!$'()*,;=&` stay as they are, everything else (`|`, `%`, `#`, `+`, space, non-ASCII) becomes UTF-8 `%HH`.
/// So the `|` delimiters survive any value, a plain `https://` WOPISrc stays readable (as in Microsoft's
/// example), and a decoder that reads `+` as a space cannot corrupt a name.
enum OfficeURLFields {
    /// Whether a byte stays unescaped in a value.
    static func isAllowed(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) || extraAllowed.contains(byte)
    }
    private static let extraAllowed = Set(":/?@!$'()*,;=&".utf8)

    /// The key of the document context, which is always written last.
    static let contextKey = "c"

    struct Parsed {
        var scheme: String
        var mode: String
        var fields: [(key: String, value: String)]

        func value(_ key: String) -> String? {
            fields.first { $0.key.lowercased() == key }?.value
        }

        func required(_ key: String, _ meaning: String, format: String) throws(WOPIFormatError) -> String {
            guard let value = value(key) else {
                throw WOPIFormatError(.missingField, format: format, "The |\(key)| field (\(meaning)) is missing.")
            }
            return value
        }
    }

    static func encode(_ value: String) -> String {
        PercentEncoding.encode(value, allowing: isAllowed)
    }

    /// Builds `<scheme>:<mode>|k|v|…`, encoding every value.
    static func build(scheme: String, mode: String, fields: [(key: String, value: String)]) -> String {
        "\(scheme):\(mode)" + fields.map { "|\($0.key)|\(encode($0.value))" }.joined()
    }

    /// A Foundation URL for the text: a `URL` cannot hold a raw `|`, so the delimiters become `%7C` (values are
    /// already encoded, so nothing else changes). Office reads this form ("the URL should be URL encoded").
    static func url(_ string: String) -> URL? {
        URL(string: string.replacingOccurrences(of: "|", with: "%7C"))
    }

    /// Parses the layout.
    ///
    /// Tolerances: when the part after the scheme has no `|` but has `%7C`, the whole string was encoded at once;
    /// it is decoded once and the values are then taken as they are. The `c` (context) field takes the rest of
    /// the string, so a context that came back with raw `|` characters is kept whole.
    static func parse(_ string: String, format: String) throws(WOPIFormatError) -> Parsed {
        let string = string.trimmingWhiteSpace()
        guard let colon = string.firstIndex(of: ":"), colon > string.startIndex,
            string[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else {
            throw WOPIFormatError(
                .malformed, format: format,
                "Expected '<scheme>:<mode>|u|…', for example "
                    + "'ms-word:ofe|u|https://…'.")
        }
        var rest = String(string[string.index(after: colon)...])
        var valuesAreEncoded = true
        if !rest.contains("|"), rest.range(of: "%7C", options: .caseInsensitive) != nil,
            let decoded = PercentEncoding.decode(rest)
        {
            rest = decoded
            valuesAreEncoded = false
        }
        let tokens = rest.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        var fields: [(key: String, value: String)] = []
        var index = 1
        while index < tokens.count {
            let key = tokens[index]
            guard index + 1 < tokens.count else {
                throw WOPIFormatError(.malformed, format: format, "The field |\(key)| has no value after it.")
            }
            let isContext = key.lowercased() == contextKey
            let raw = isContext ? tokens[(index + 1)...].joined(separator: "|") : tokens[index + 1]
            guard let value = valuesAreEncoded ? PercentEncoding.decode(raw) : raw else {
                throw WOPIFormatError(
                    .invalidValue, format: format,
                    "The value of |\(key)| has a '%' that is not "
                        + "followed by two hex digits of UTF-8; encode '%' as '%25'.")
            }
            fields.append((key, value))
            index = isContext ? tokens.count : index + 2
        }
        return Parsed(scheme: String(string[..<colon]), mode: tokens[0], fields: fields)
    }
}
