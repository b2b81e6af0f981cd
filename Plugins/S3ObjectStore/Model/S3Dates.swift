import Foundation

/// Reads the two date forms S3 sends: HTTP dates in headers (`Last-Modified: Wed, 12 Oct 2009 17:50:00 GMT`) and
/// ISO 8601 in XML (`<LastModified>2009-10-12T17:50:30.000Z</LastModified>`). Fixed formats, parsed by hand: no
/// `DateFormatter`, no locale.
enum S3Dates {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An RFC 7231 IMF-fixdate, `nil` when `text` is not one.
    static func httpDate(_ text: String) -> Date? {
        // "Wed, 12 Oct 2009 17:50:00 GMT"
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int64(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int64(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard time.count == 3 else { return nil }
        return date(year: year, month: Int64(month) + 1, day: day, hour: time[0], minute: time[1], second: time[2])
    }

    /// An ISO 8601 UTC timestamp with optional fractional seconds, `nil` when `text` is not one.
    static func iso8601(_ text: String) -> Date? {
        // "2009-10-12T17:50:30.000Z"
        guard text.hasSuffix("Z") else { return nil }
        let halves = text.dropLast().split(separator: "T")
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-").compactMap { Int64($0) }
        let clock = halves[1].split(separator: ":")
        guard day.count == 3, clock.count == 3, let hour = Int64(clock[0]), let minute = Int64(clock[1]),
            let seconds = Double(clock[2])
        else { return nil }
        guard let whole = date(year: day[0], month: day[1], day: day[2], hour: hour, minute: minute, second: 0) else {
            return nil
        }
        return whole.addingTimeInterval(seconds)
    }

    private static func date(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)
        -> Date?
    {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), (1...9999).contains(year)
        else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
}
