/// A tolerant reader of `WWW-Authenticate` header values (see ``AuthenticationChallenge/parseList(_:)``).
struct ChallengeReader {
    private let characters: [Character]
    private var position = 0

    init(_ text: String) {
        characters = Array(text)
    }

    private static func error(_ message: String) -> WOPIFormatError {
        WOPIFormatError(.malformed, format: "WWW-Authenticate", message)
    }

    mutating func readAll() throws(WOPIFormatError) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        var current: AuthenticationChallenge?
        while true {
            skip { $0.isWhitespace || $0 == "," }
            guard position < characters.count else { break }
            let name = readToken()
            guard !name.isEmpty else {
                throw Self.error(
                    "Expected a scheme or parameter name at offset \(position), found "
                        + "'\(characters[position])'.")
            }
            let afterName = position
            skip { $0.isWhitespace }
            if peek == "=" {
                guard current != nil else {
                    throw Self.error(
                        "The parameter '\(name)' comes before any authentication scheme; "
                            + "a challenge starts with a scheme such as 'Bearer'.")
                }
                position += 1
                skip { $0.isWhitespace }
                current!.parameters.append(.init(name: name, value: try readValue()))
                continue
            }
            position = afterName
            if let current { challenges.append(current) }
            current = AuthenticationChallenge(scheme: name)
            skip { $0.isWhitespace }
            current!.token68 = readToken68()
        }
        if let current { challenges.append(current) }
        return challenges
    }

    private var peek: Character? {
        position < characters.count ? characters[position] : nil
    }

    private mutating func skip(while predicate: (Character) -> Bool) {
        while let character = peek, predicate(character) { position += 1 }
    }

    /// A name: everything up to white space, `,`, `=` or `"`.
    private mutating func readToken() -> String {
        let start = position
        skip { !$0.isWhitespace && $0 != "," && $0 != "=" && $0 != "\"" }
        return String(characters[start..<position])
    }

    /// A token68 (`[A-Za-z0-9-._~+/]+ =*`) that ends the challenge, or `nil` (position unchanged).
    private mutating func readToken68() -> String? {
        let start = position
        skip { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~+/".contains($0)) }
        guard position > start else { return nil }
        skip { $0 == "=" }
        let end = position
        skip { $0.isWhitespace }
        guard peek == nil || peek == "," else {
            position = start
            return nil
        }
        return String(characters[start..<end])
    }

    /// A quoted string (with `\` escapes) or an unquoted value up to the next comma, trimmed.
    private mutating func readValue() throws(WOPIFormatError) -> String {
        guard peek == "\"" else {
            let start = position
            skip { $0 != "," }
            return String(characters[start..<position]).trimmingWhiteSpace()
        }
        let open = position
        position += 1
        var value = ""
        while let character = peek {
            position += 1
            switch character {
            case "\"":
                return value
            case "\\":
                guard let escaped = peek else { break }
                value.append(escaped)
                position += 1
            default:
                value.append(character)
            }
        }
        throw Self.error("The quoted string starting at offset \(open) is not closed with '\"'.")
    }
}
