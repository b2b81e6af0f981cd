/// Escaping of text placed in HTML: element content and double- or single-quoted attribute values.
public enum HTMLEscaping {
    /// `text` with `& < > " '` replaced by character references.
    public static func escape(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
