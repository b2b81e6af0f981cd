import Foundation

/// What a `Range` request header asks of a representation of a known length (RFC 9110 §14.1.2 and §14.2),
/// resolved once for GetFile and `FileUrl`.
///
/// One range is served as `206 Partial Content`; a range that starts past the end is `416` with
/// `Content-Range: bytes */length`. A header this host ignores serves the whole content with `200`, as RFC 9110
/// §14.2 allows: another unit than `bytes`, a malformed value, and several ranges at once (no WOPI client asks for
/// them, and a multipart body would double what a range saves).
package enum ByteRangeRequest: Equatable, Sendable {
    /// No `Range`, or one this host ignores: the whole content, `200`.
    case whole
    /// One satisfiable range, clamped to the content: `206` with `Content-Range`.
    case part(Range<Int64>)
    /// A range that selects nothing of the content: `416`.
    case unsatisfiable

    /// Resolves `header` (the `Range` value, `nil` when absent) against content of `length` bytes.
    package init(header: String?, length: Int64) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard let equals = trimmed.firstIndex(of: "="),
            trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "bytes"
        else {
            self = .whole
            return
        }
        let spec = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        switch (Self.number(first), Self.number(last)) {
        case (nil, let suffix?) where first.isEmpty:
            // The last `suffix` bytes; all of them when the content is shorter.
            self = suffix == 0 || length == 0 ? .unsatisfiable : .part(max(0, length - suffix)..<length)
        case (let start?, nil) where last.isEmpty:
            self = start < length ? .part(start..<length) : .unsatisfiable
        case (let start?, let end?) where start <= end:
            // `end` may be as large as `Int64.max`: clamp it to the last byte before adding one.
            self = start < length ? .part(start..<(min(end, length - 1) + 1)) : .unsatisfiable
        default:
            self = .whole
        }
    }

    /// A position of the range: ``RequestNumber/nonNegative(_:)``.
    private static func number(_ text: String) -> Int64? { RequestNumber.nonNegative(text) }

    /// The `Content-Range` value of a part of content of `length` bytes: `bytes 0-99/1000`.
    package static func contentRange(_ part: Range<Int64>, length: Int64) -> String {
        "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(length)"
    }

    /// The `Content-Range` value of a `416`: `bytes */1000`.
    package static func unsatisfiedRange(length: Int64) -> String { "bytes */\(length)" }
}
