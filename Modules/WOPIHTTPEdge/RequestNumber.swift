/// The one way a number from a request is read: byte counts, offsets, lengths, sequence numbers, tick counts and
/// timeouts in headers and in the `Range` header.
///
/// A client's number is outside input: a value near `Int64.max` must never reach arithmetic that traps (a trap
/// stops the whole host process). So a number is read here, as ASCII digits only (no sign, no `_`, no other
/// digits), and every sum of a client's numbers goes through ``sum(_:_:)``, which answers `nil` instead of
/// overflowing.
package enum RequestNumber {
    /// `text`, trimmed of spaces and tabs, as a number from 0 to `Int64.max`; `nil` for anything else (empty,
    /// signed, not decimal, or too large).
    package static func nonNegative(_ text: some StringProtocol) -> Int64? {
        let digits = text.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var value: Int64 = 0
        var count = 0
        for byte in digits {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (next, carry) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !carry else { return nil }
            value = next
            count += 1
        }
        guard count > 0 else { return nil }
        // Only spaces and tabs may follow the digits.
        let rest = digits.dropFirst(count)
        guard rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
        return value
    }

    /// `a + b`, or `nil` where the sum passes `Int64.max` (or `Int64.min`).
    package static func sum(_ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : result
    }

    /// The sum of `values`, or `nil` where it passes `Int64.max`.
    package static func sum(_ values: some Sequence<Int64>) -> Int64? {
        var total: Int64 = 0
        for value in values {
            guard let next = sum(total, value) else { return nil }
            total = next
        }
        return total
    }
}
