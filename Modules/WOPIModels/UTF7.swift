/// UTF-7 (RFC 2152), the encoding of the WOPI name headers (`X-WOPI-SuggestedTarget`, `X-WOPI-RelativeTarget`,
/// `X-WOPI-RequestedName` and `X-WOPI-ValidRelativeTarget`).
///
/// ```swift
/// UTF7.encode("Résumé 2024.docx")          // "R+AOk-sum+AOk- 2024.docx"
/// try UTF7.decode("madeup+AF8-name.docx")   // "madeup_name.docx"
/// UTF7.decodeLeniently("Résumé.docx")       // not UTF-7 (non-ASCII): returned unchanged
/// ```
///
/// Choices where RFC 2152 and the WOPI docs leave room:
/// - ``encode(_:)`` writes only the RFC's "direct" characters `A–Z a–z 0–9 ' ( ) , - . / : ?` and space as
///   themselves, `+` as `+-`, and everything else (including the "optional direct" characters such as `_`, `!`
///   or `;`) in base64 runs that are always closed with `-`. That is what .NET's `Encoding.UTF7` sends, and what
///   every decoder reads.
/// - ``decode(_:)`` is liberal in what it accepts: any ASCII character outside a run stands for itself (also
///   optional-direct characters, `~`, `\`, tabs and line breaks), a run may end with `-` (consumed) or with any
///   other non-base64 character (kept) or at the end of the input.
/// - ``decode(_:)`` is strict about real defects: non-ASCII input, a `+` followed by neither base64 nor `-`
///   (including a trailing `+`), left-over bits that form a partial code unit or are not zero, and unpaired
///   surrogates (a surrogate pair must sit in one run). Each throws ``UTF7Error``.
public enum UTF7 {
    /// Encodes `text` as UTF-7, the way a host should send `X-WOPI-ValidRelativeTarget`.
    ///
    /// The result is pure ASCII and decodes back to `text` with ``decode(_:)``.
    public static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pending: [UInt16] = []
        func flush() {
            guard !pending.isEmpty else { return }
            output.append(UInt8(ascii: "+"))
            output.append(contentsOf: Base64Run.encode(pending))
            output.append(UInt8(ascii: "-"))
            pending.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if scalar == "+" {
                flush()
                output.append(contentsOf: [UInt8(ascii: "+"), UInt8(ascii: "-")])
            } else if isDirect(scalar) {
                flush()
                output.append(UInt8(scalar.value))
            } else {
                pending.append(contentsOf: String(scalar).utf16)
            }
        }
        flush()
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a UTF-7 string.
    ///
    /// - Throws: ``UTF7Error`` when `text` is not valid UTF-7 (see the type's discussion for what is accepted).
    public static func decode(_ text: String) throws(UTF7Error) -> String {
        let bytes = Array(text.utf8)
        if let index = bytes.firstIndex(where: { $0 >= 0x80 }) {
            throw UTF7Error(.nonASCII, offset: index, "UTF-7 is 7-bit ASCII; decode this value as UTF-8 instead.")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "+") else {
                units.append(UInt16(byte))
                index += 1
                continue
            }
            let start = index
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                units.append(UInt16(UInt8(ascii: "+")))
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, Base64Run.value(of: bytes[end]) != nil { end += 1 }
            guard end > index else {
                throw UTF7Error(
                    .emptyShift, offset: start, "A '+' must be followed by base64 or '-'; write '+' as '+-'.")
            }
            let run = try Base64Run.decode(bytes[index..<end], offset: start)
            units.append(contentsOf: run)
            index = end
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Decodes `text` as UTF-7, or returns it unchanged when it is not valid UTF-7.
    ///
    /// This is the leniency rule of Docs/wopi-protocol.md §14.2: a client that sends plain UTF-8 names (non-ASCII
    /// bytes) or a name with a stray `+` (for example `C++.docx`) still gets its name.
    public static func decodeLeniently(_ text: String) -> String {
        (try? decode(text)) ?? text
    }

    /// Whether `scalar` is written as itself by ``encode(_:)``: RFC 2152 set D plus space.
    static func isDirect(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9": true
        case "'", "(", ")", ",", "-", ".", "/", ":", "?", " ": true
        default: false
        }
    }
}
