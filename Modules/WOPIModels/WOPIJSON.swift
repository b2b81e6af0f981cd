import Foundation

/// The JSON coders for WOPI bodies.
public enum WOPIJSON {
    /// An encoder for WOPI bodies: sorted keys (stable output), no escaped slashes.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for WOPI bodies.
    public static var decoder: JSONDecoder { JSONDecoder() }

    /// Formats a time as WOPI wants it: UTC ISO 8601 with seven fractional digits, `2009-06-15T13:45:30.0000000Z`.
    public static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let ticks = Int(((date.timeIntervalSince1970 - seconds) * 10_000_000).rounded(.down))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(ticks, 7))Z"
    }

    /// Parses a WOPI time stamp (any ISO 8601 form with or without fractional seconds).
    public static func date(from text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }
}

/// Milliseconds since 1970-01-01 UTC, the unit of `access_token_ttl` and `AccessTokenExpiry`.
public enum EpochMilliseconds {
    /// The epoch milliseconds of `date`.
    public static func from(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    /// The date of an epoch-milliseconds value.
    public static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
