/// The modified base64 of a UTF-7 shift sequence: UTF-16BE code units, alphabet `A–Z a–z 0–9 + /`, no padding.
enum Base64Run {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of a base64 character, or `nil` when `byte` is not one.
    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// Encodes code units as base64 characters, padding the last character's bits with zeros.
    static func encode(_ units: [UInt16]) -> [UInt8] {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bitCount = 0
        for unit in units {
            buffer = (buffer << 16) | UInt32(unit)
            bitCount += 16
            while bitCount >= 6 {
                bitCount -= 6
                output.append(alphabet[Int((buffer >> UInt32(bitCount)) & 0x3F)])
            }
            buffer &= (1 << UInt32(bitCount)) - 1
        }
        if bitCount > 0 {
            output.append(alphabet[Int((buffer << UInt32(6 - bitCount)) & 0x3F)])
        }
        return output
    }

    /// Decodes a run of base64 characters (all of them valid) into code units and checks the surrogates.
    ///
    /// - Parameter offset: the offset of the run's `+`, for error messages.
    static func decode(_ run: ArraySlice<UInt8>, offset: Int) throws(UTF7Error) -> [UInt16] {
        var units: [UInt16] = []
        var buffer: UInt32 = 0
        var bitCount = 0
        for byte in run {
            buffer = (buffer << 6) | UInt32(value(of: byte) ?? 0)
            bitCount += 6
            if bitCount >= 16 {
                bitCount -= 16
                units.append(UInt16(truncatingIfNeeded: buffer >> UInt32(bitCount)))
                buffer &= (1 << UInt32(bitCount)) - 1
            }
        }
        if bitCount >= 6 {
            throw UTF7Error(
                .partialCharacter, offset: offset,
                "The base64 run starting here is truncated: it ends "
                    + "inside a UTF-16 code unit.")
        }
        if buffer != 0 {
            throw UTF7Error(
                .nonZeroPaddingBits, offset: offset,
                "The base64 run starting here ends with non-zero "
                    + "padding bits; it was not produced by a UTF-7 encoder.")
        }
        try checkSurrogates(units, offset: offset)
        return units
    }

    private static func checkSurrogates(_ units: [UInt16], offset: Int) throws(UTF7Error) {
        var index = 0
        while index < units.count {
            let unit = units[index]
            if UTF16.isLeadSurrogate(unit) {
                guard index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) else {
                    throw UTF7Error(
                        .unpairedSurrogate, offset: offset,
                        "A high surrogate in the base64 run "
                            + "starting here is not followed by a low surrogate.")
                }
                index += 2
            } else if UTF16.isTrailSurrogate(unit) {
                throw UTF7Error(
                    .unpairedSurrogate, offset: offset,
                    "A low surrogate in the base64 run starting "
                        + "here has no high surrogate before it.")
            } else {
                index += 1
            }
        }
    }
}
