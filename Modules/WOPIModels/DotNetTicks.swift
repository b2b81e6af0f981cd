public import Foundation

/// .NET ticks (100 ns since 0001-01-01 UTC), the unit of `X-WOPI-TimeStamp` (Docs/wopi-protocol.md, Appendix: units).
public enum DotNetTicks {
    /// Ticks per second.
    public static let perSecond: Int64 = 10_000_000
    /// Ticks per minute.
    public static let perMinute: Int64 = 60 * perSecond
    /// The ticks of the Unix epoch, 1970-01-01T00:00:00Z.
    public static let unixEpoch: Int64 = 621_355_968_000_000_000

    /// The ticks of a moment, rounded down to whole ticks.
    public static func ticks(from date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let fraction = Int64(((date.timeIntervalSince1970 - seconds) * Double(perSecond)).rounded(.down))
        return unixEpoch + Int64(seconds) * perSecond + fraction
    }

    /// The moment of a tick count; any `Int64` (an `X-WOPI-TimeStamp` is outside input), counts before year 1
    /// included.
    public static func date(fromTicks ticks: Int64) -> Date {
        // Below Int64.min + unixEpoch the subtraction would trap; such a count is long before any real request.
        let (sinceEpoch, overflow) = ticks.subtractingReportingOverflow(unixEpoch)
        guard !overflow else { return .distantPast }
        let seconds = sinceEpoch / perSecond
        let remainder = sinceEpoch % perSecond
        return Date(timeIntervalSince1970: Double(seconds) + Double(remainder) / Double(perSecond))
    }

    /// The ticks for Unix epoch milliseconds (`access_token_ttl`): `ms * 10_000 + 621_355_968_000_000_000`.
    public static func ticks(fromUnixMilliseconds milliseconds: Int64) -> Int64 {
        milliseconds * 10_000 + unixEpoch
    }
}
