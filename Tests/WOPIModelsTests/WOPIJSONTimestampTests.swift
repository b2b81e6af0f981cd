import Foundation
import Testing
import WOPIModels

@Suite struct WOPIJSONTimestampTests {
    @Test func formatsKnownTimesWithSevenFractionalDigits() {
        #expect(WOPIJSON.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.0000000Z")
        #expect(WOPIJSON.timestamp(Date(timeIntervalSince1970: 1_245_073_530.5)) == "2009-06-15T13:45:30.5000000Z")
        #expect(WOPIJSON.timestamp(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.0000000Z")
        #expect(WOPIJSON.timestamp(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.0000000Z")
    }

    /// Dates spread over four centuries (leap years, century rules) against Foundation's Gregorian calendar.
    @Test func agreesWithTheGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var seconds = -2_208_988_800  // 1900-01-01
        while seconds < 10_413_792_000 {  // 2300-01-01
            let date = Date(timeIntervalSince1970: Double(seconds) + 0.25)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.2500000Z", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(WOPIJSON.timestamp(date) == expected)
            seconds += 3_155_693  // about 36.5 days and a bit, so times of day vary too
        }
    }
}
