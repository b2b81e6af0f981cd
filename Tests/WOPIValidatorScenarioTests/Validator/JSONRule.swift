import Foundation

/// One property check of the validator's `JsonResponseContentValidator` (facts from its
/// `JsonContentValidator.cs`): a missing, `null`, empty-string, empty-array or empty-object value passes unless
/// the property is required; otherwise the value is compared. This port is stricter on types: a boolean
/// must be a JSON boolean and a long a JSON integer (the schema demands that too).
enum JSONRule: Sendable {
    /// `StringProperty`: optional exact value (ordinal) and suffix.
    case string(String, required: Bool = false, equals: String? = nil, endsWith: String? = nil)
    /// `BooleanProperty`: optional expected value (from the XML or from saved state).
    case bool(String, required: Bool = false, equals: Bool? = nil)
    /// `LongProperty`.
    case long(String, required: Bool = false)
    /// `IntegerProperty`: a JSON integer, optionally equal to `equals`.
    case integer(String, required: Bool = false, equals: Int64? = nil)
    /// `ArrayProperty`: an array of strings, optionally containing `contains` (ignoring case, as the validator's
    /// `OrdinalIgnoreCase` does).
    case array(String, required: Bool = false, contains: String? = nil)
    /// `AbsoluteUrlProperty`: an absolute URI, with an `access_token` query parameter when asked.
    case absoluteURL(String, required: Bool = false, mustIncludeAccessToken: Bool = false)

    var path: String {
        switch self {
        case .string(let path, _, _, _), .bool(let path, _, _), .long(let path, _), .integer(let path, _, _),
            .array(let path, _, _), .absoluteURL(let path, _, _):
            path
        }
    }

    private var required: Bool {
        switch self {
        case .string(_, let required, _, _), .bool(_, let required, _), .long(_, let required),
            .integer(_, let required, _), .array(_, let required, _), .absoluteURL(_, let required, _):
            required
        }
    }

    /// A problem with `document`, or `nil` when the rule holds.
    func problem(in document: JSONValue) -> String? {
        let value = document.select(path)
        if Self.isNullOrEmpty(value) {
            return required ? "'\(path)' is required but missing or empty" : nil
        }
        guard let value else { return nil }
        switch self {
        case .string(_, _, let expected, let suffix):
            guard let text = value.stringValue else { return "'\(path)' must be a string, got \(value)" }
            if let expected, text != expected { return "'\(path)': expected '\(expected)', actual '\(text)'" }
            if let suffix, !text.hasSuffix(suffix) {
                return "'\(path)': expected to end with '\(suffix)', actual '\(text)'"
            }
        case .bool(_, _, let expected):
            guard let flag = value.boolValue else { return "'\(path)' must be a JSON boolean, got \(value)" }
            if let expected, flag != expected { return "'\(path)': expected \(expected), actual \(flag)" }
        case .long:
            guard case .integer = value else { return "'\(path)' must be a JSON integer, got \(value)" }
        case .integer(_, _, let expected):
            guard case .integer(let number) = value else { return "'\(path)' must be a JSON integer, got \(value)" }
            if let expected, number != expected { return "'\(path)': expected \(expected), actual \(number)" }
        case .array(_, _, let expected):
            guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
                return "'\(path)' must be an array of strings, got \(value)"
            }
            if let expected, !items.contains(where: { $0.stringValue?.lowercased() == expected.lowercased() }) {
                return "'\(path)': expected to contain '\(expected)', actual \(value)"
            }
        case .absoluteURL(_, _, let mustIncludeAccessToken):
            guard let text = value.stringValue, Self.isAbsoluteURL(text) else {
                return "'\(path)' must be an absolute URL, got \(value)"
            }
            if mustIncludeAccessToken, !Self.hasAccessToken(text) {
                return "'\(path)': URL '\(Exchange.redacted(text))' has no access_token query parameter"
            }
        }
        return nil
    }

    static func isNullOrEmpty(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: true
        case .string(let text)?: text.isEmpty
        case .array(let items)?: items.isEmpty
        case .object(let members)?: members.isEmpty
        default: false
        }
    }

    /// .NET `Uri.TryCreate(value, UriKind.Absolute, …)`, approximately: a scheme and, for http(s), a host.
    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
        if scheme == "http" || scheme == "https" { return !(url.host ?? "").isEmpty }
        return true
    }

    static func hasAccessToken(_ text: String) -> Bool {
        URLComponents(string: text)?.queryItems?.contains { $0.name == "access_token" && $0.value != nil } ?? false
    }
}
