package import Foundation

/// The time a request is signed at, in the two forms SigV4 uses: `20150830T123600Z` (`x-amz-date`) and `20150830`
/// (the credential scope's date), always in UTC.
///
/// Made without a `DateFormatter` (no locale, no calendar, no lock): the civil date comes from the days since
/// 1970-01-01 by Howard Hinnant's `civil_from_days`.
package struct SigV4Timestamp: Sendable, Hashable, CustomStringConvertible {
    /// The ISO 8601 basic form, `yyyyMMdd'T'HHmmss'Z'`: the value of `x-amz-date` and `X-Amz-Date`.
    package let basic: String
    /// The date part, `yyyyMMdd`, of the credential scope.
    package var date: Substring { basic.prefix(8) }

    /// The timestamp of `date`, truncated to the second.
    package init(_ date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        // A negative remainder belongs to the day before.
        let day = secondOfDay < 0 ? days - 1 : days
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let (year, month, dayOfMonth) = Self.civil(fromDays: day)
        basic =
            Self.pad(year, 4) + Self.pad(month, 2) + Self.pad(dayOfMonth, 2) + "T" + Self.pad(second / 3600, 2)
            + Self.pad(second % 3600 / 60, 2) + Self.pad(second % 60, 2) + "Z"
    }

    package var description: String { basic }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The proleptic Gregorian year, month (1-12) and day (1-31) of `days` since 1970-01-01.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
