import Foundation

/// The UTF-7 the validator puts in name headers, reproduced from the behaviour of .NET's `Encoding.UTF7`
/// (RFC 2152 without the optional direct characters), written here independently of `WOPIModels.UTF7` so the
/// product's decoder is checked against a separate encoder.
///
/// - Direct: `A-Z a-z 0-9 ' ( ) , - . / : ?`, space, tab, CR, LF.
/// - `+` becomes `+-`.
/// - Anything else goes in a `+…` run of modified base64 over UTF-16BE; the run is closed with `-` when the
///   next character is a base64 character or `-`, and always at the end of the text.
enum DotNetUTF7 {
    private static let direct = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'(),-./:? \t\r\n".unicodeScalars)
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    private static let base64Characters = Set(alphabet)

    /// `Encoding.UTF8.GetString(Encoding.UTF7.GetBytes(text))`: what RenameFile and RenameContainer send.
    static func encode(_ text: String) -> String {
        var output = ""
        var bits: UInt32 = 0
        var bitCount = -1  // -1: not in a base64 run
        func flush(before next: Character?) {
            if bitCount > 0 { output.append(alphabet[Int((bits << UInt32(6 - bitCount)) & 0x3F)]) }
            if next == nil || next == "-" || base64Characters.contains(next!) { output.append("-") }
            bits = 0
            bitCount = -1
        }
        for scalar in text.unicodeScalars {
            if direct.contains(scalar) {
                if bitCount >= 0 { flush(before: Character(scalar)) }
                output.unicodeScalars.append(scalar)
            } else if scalar == "+", bitCount < 0 {
                output += "+-"
            } else {
                if bitCount < 0 {
                    output.append("+")
                    bitCount = 0
                }
                for unit in String(scalar).utf16 {
                    bits = (bits << 16) | UInt32(unit)
                    bitCount += 16
                    while bitCount >= 6 {
                        bitCount -= 6
                        output.append(alphabet[Int((bits >> UInt32(bitCount)) & 0x3F)])
                    }
                    bits &= (1 << UInt32(bitCount)) - 1
                }
            }
        }
        if bitCount >= 0 { flush(before: nil) }
        return output
    }

    /// `Uri.UnescapeDataString(HttpUtility.UrlEncode(text, Encoding.UTF7))`: what PutRelativeFile,
    /// CreateChildFile and CreateChildContainer send. Percent-escaping and unescaping cancel out, except that
    /// `UrlEncode` turns a space into `+`.
    static func encodeForTargetHeader(_ text: String) -> String {
        encode(text).replacingOccurrences(of: " ", with: "+")
    }
}
