public import Foundation

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
    ///
    /// Pure integer arithmetic (the proleptic Gregorian calendar, as ISO 8601 uses): CheckFileInfo formats one
    /// on every request, and a `Calendar` costs more than the rest of the answer.
    public static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        let ticks = min(9_999_999, Int(((interval - whole) * 10_000_000).rounded(.down)))
        let seconds = Int(whole)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = [UInt8]()
        text.reserveCapacity(28)
        func append(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        append(year, width: 4)
        text.append(UInt8(ascii: "-"))
        append(month, width: 2)
        text.append(UInt8(ascii: "-"))
        append(day, width: 2)
        text.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2)
        text.append(UInt8(ascii: "."))
        append(ticks, width: 7)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The Gregorian year, month and day of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    package static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
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
