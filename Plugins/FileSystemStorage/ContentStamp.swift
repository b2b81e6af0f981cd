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
    init?(attribute: String?) {
        guard let parts = attribute?.split(separator: ":"), parts.count == 5, parts[0] == "1",
            let modified = Int64(parts[2]), let size = Int64(parts[3]), let sha256 = Data(hex: parts[4]),
            sha256.count == 32
        else { return nil }
        self.init(token: String(parts[1]), modifiedNanoseconds: modified, size: size, sha256: sha256)
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

extension Data {
    /// Parses lower- or upper-case hexadecimal text.
    fileprivate init?(hex: Substring) {
        guard hex.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
