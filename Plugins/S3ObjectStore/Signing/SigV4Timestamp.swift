package import Foundation
import WOPIModels

/// The time a request is signed at, in the two forms SigV4 uses: `20150830T123600Z` (`x-amz-date`) and `20150830`
/// (the credential scope's date), always in UTC.
///
/// Made without a `DateFormatter` (no locale, no calendar, no lock): the civil date comes from the days since
/// 1970-01-01 (`WOPIJSON.civilDate(daysSince1970:)`, Howard Hinnant's `civil_from_days`).
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
        let (year, month, dayOfMonth) = WOPIJSON.civilDate(daysSince1970: Int(day))
        basic =
            Self.pad(year, 4) + Self.pad(month, 2) + Self.pad(dayOfMonth, 2) + "T" + Self.pad(second / 3600, 2)
            + Self.pad(second % 3600 / 60, 2) + Self.pad(second % 60, 2) + "Z"
    }

    package var description: String { basic }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
