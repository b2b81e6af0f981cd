/// The percent-encoding of AWS Signature Version 4 (`UriEncode` in AWS's documentation): every byte of the UTF-8 form
/// is written as `%XX` (upper-case hexadecimal) except the unreserved characters `A`-`Z`, `a`-`z`, `0`-`9`, `-`,
/// `.`, `_` and `~`; a `/` is kept as it is in a path and encoded in a query.
///
/// S3 encodes each path segment once and never normalises the path (`a//b` and `./` stay as they are), which is what
/// ``path(_:)`` does: the same string is sent on the wire and signed.
package enum SigV4URIEncoding {
    /// `value` encoded for a query parameter name or value (a `/` becomes `%2F`).
    package static func query(_ value: String) -> String {
        encode(value, keepingSlash: false)
    }

    /// `path` encoded for the path of a request, its `/` separators kept.
    package static func path(_ path: String) -> String {
        encode(path, keepingSlash: true)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func encode(_ value: String, keepingSlash: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
