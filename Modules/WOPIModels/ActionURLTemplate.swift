public import Foundation

/// A discovery `urlsrc` template and how to turn it into an action URL (Docs/wopi-protocol.md §13.3).
///
/// ```swift
/// let template = ActionURLTemplate("https://x/wv/view.aspx?<ui=UI_LLCC&><rs=DC_LLCC&><wopisrc=WOPI_SOURCE&>")
/// template.url(wopiSrc: URL(string: "https://wopi.contoso.com/wopi/files/f1")!, values: [.uiLanguage: "en-US"])
/// // "https://x/wv/view.aspx?ui=en-US&wopisrc=https%3A%2F%2Fwopi.contoso.com%2Fwopi%2Ffiles%2Ff1"
/// ```
///
/// Rules: every `<name=PLACEHOLDER[&]>` group whose placeholder has a value becomes `name=value[&]` (the value
/// percent-encoded, everything outside RFC 3986's unreserved characters); every other `<…>` group, known or not,
/// is deleted, because Microsoft adds placeholders at any time. Afterwards `?&` becomes `?` and a trailing `&` or
/// `?` is removed.
/// When the template has no `WOPI_SOURCE` group (Microsoft 365's templates do not), `WOPISrc=<encoded>` is
/// appended as a query parameter, which is what Office for the web expects.
public struct ActionURLTemplate: Sendable, Hashable {
    /// The template as in discovery (XML entities already decoded: `<` and `&`, not `&lt;` and `&amp;`).
    public var template: String

    /// Creates a template.
    public init(_ template: String) {
        self.template = template
    }

    /// The placeholders of the template's `<name=PLACEHOLDER>` groups, in order.
    public var placeholders: [ActionURLPlaceholder] {
        segments.compactMap {
            if case .group(let group) = $0 { group.map { ActionURLPlaceholder(rawValue: $0.placeholder) } } else { nil }
        }
    }

    /// The action URL for a file.
    ///
    /// - Parameters:
    ///   - wopiSrc: the file's WOPISrc, without access token (tokens are POSTed as form fields, except for the
    ///     validator's `getinfo` action, where the caller appends them).
    ///   - values: values for the other placeholders; groups without a value are dropped.
    public func url(wopiSrc: URL, values: [ActionURLPlaceholder: String] = [:]) -> String {
        var values = values
        values[.wopiSource] = wopiSrc.absoluteString
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .group(let group?):
                guard let value = values[ActionURLPlaceholder(rawValue: group.placeholder)] else { continue }
                output += group.name + "=" + PercentEncoding.encode(value) + group.trailer
            case .group(nil):
                continue
            }
        }
        output = output.replacingOccurrences(of: "?&", with: "?")
        while output.hasSuffix("&") || output.hasSuffix("?") { output.removeLast() }
        if !placeholders.contains(.wopiSource) {
            output += (output.contains("?") ? "&" : "?") + "WOPISrc=" + PercentEncoding.encode(wopiSrc.absoluteString)
        }
        return output
    }

    private struct Group {
        var name: String
        var placeholder: String
        var trailer: String
    }

    private enum Segment {
        case literal(String)
        /// A `<…>` group; `nil` when its content is not `name=PLACEHOLDER[&]`.
        case group(Group?)
    }

    private var segments: [Segment] {
        var segments: [Segment] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            segments.append(.literal(String(rest[..<open])))
            segments.append(.group(Self.group(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        segments.append(.literal(String(rest)))
        return segments
    }

    private static func group(_ content: Substring) -> Group? {
        let parts = content.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        var placeholder = parts[1]
        var trailer = ""
        if placeholder.hasSuffix("&") {
            placeholder = placeholder.dropLast()
            trailer = "&"
        }
        guard !placeholder.isEmpty,
            placeholder.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
        else { return nil }
        return Group(name: String(parts[0]), placeholder: String(placeholder), trailer: trailer)
    }
}
