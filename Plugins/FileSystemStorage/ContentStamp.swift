import Foundation

/// What WOPIKit records about the content it wrote, in the `user.wopikit.content` extended attribute.
///
/// The stamp is trusted only while the file's size and modification time still match it: a program that
/// edits the file in place changes them, and the file then gets a version derived from them (and no SHA-256),
/// so a version never lies about content.
struct ContentStamp: Sendable, Equatable {
    /// A random token naming this write; the file's version while the stamp holds.
    var token: String
    var modifiedNanoseconds: Int64
    var size: Int64
    var sha256: Data

    init(token: String, modifiedNanoseconds: Int64, size: Int64, sha256: Data) {
        self.token = token
        self.modifiedNanoseconds = modifiedNanoseconds
        self.size = size
        self.sha256 = sha256
    }

    /// Parses the attribute's value; `nil` when it is missing or malformed.
    ///
    /// Every listed file's stamp is parsed (EnumerateChildren of a large folder), so this works on the UTF-8
    /// bytes: no substrings, no per-byte hex strings.
    init?(attribute: String?) {
        guard var attribute else { return nil }
        let parsed = attribute.withUTF8 { bytes -> ContentStamp? in
            let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count == 5, parts[0].elementsEqual("1".utf8), !parts[1].isEmpty,
                let modified = Self.integer(parts[2]), let size = Self.integer(parts[3]),
                let sha256 = Self.bytes(hex: parts[4]), sha256.count == 32
            else { return nil }
            return ContentStamp(
                token: String(decoding: parts[1], as: UTF8.self), modifiedNanoseconds: modified, size: size,
                sha256: sha256)
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// A decimal integer, optionally negative, that fits an `Int64`.
    private static func integer(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        Int64(String(decoding: digits, as: UTF8.self))
    }

    /// Lower- or upper-case hexadecimal text as bytes.
    private static func bytes(hex: Slice<UnsafeBufferPointer<UInt8>>) -> Data? {
        guard hex.count.isMultiple(of: 2) else { return nil }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: hex.count / 2)
        for offset in bytes.indices {
            let index = hex.startIndex + 2 * offset
            guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else { return nil }
            bytes[offset] = high << 4 | low
        }
        return Data(bytes)
    }

    /// The attribute's value.
    var attributeValue: String {
        "1:\(token):\(modifiedNanoseconds):\(size):\(sha256.map { String(format: "%02x", $0) }.joined())"
    }

    /// The version and SHA-256 of a file with this status and (possibly absent or outdated) stamp.
    static func describe(_ status: FileStatus, stamp: ContentStamp?) -> (version: String, sha256: Data?) {
        if let stamp, stamp.size == status.size, stamp.modifiedNanoseconds == status.modifiedNanoseconds {
            return (stamp.token, stamp.sha256)
        }
        return ("m\(status.modifiedNanoseconds)-s\(status.size)", nil)
    }
}
