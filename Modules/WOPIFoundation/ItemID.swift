/// The stable, URL-safe identifier of a file or container in a `StorageBackend` (`WOPIStorage`).
///
/// An ID never changes across edits, renames and moves, and is the same for every user. It is made of
/// ASCII letters, digits, `-` and `_` only (1...128 characters), so it can stand in a WOPI URL path as is.
public struct ItemID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// The characters an ID may contain.
    public static let allowedCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    /// The longest ID accepted.
    public static let maximumLength = 128

    /// Whether `byte` is the UTF-8 of one of ``allowedCharacters``.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// The textual form of the ID.
    public let rawValue: String

    /// Creates an ID, or returns `nil` when `rawValue` is empty, too long or not URL-safe.
    public init?(rawValue: String) {
        // Every allowed character is one ASCII byte, so the UTF-8 bytes decide (no grapheme breaking per request).
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength, rawValue.utf8.allSatisfy(Self.isAllowed)
        else { return nil }
        self.rawValue = rawValue
    }

    /// A new random ID: 128 bits of randomness, base32-like lower-case, 26 characters.
    public static func random() -> ItemID {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var generator = SystemRandomNumberGenerator()
        let text = String((0..<26).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
        return ItemID(rawValue: text)!
    }

    public var description: String { rawValue }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ItemID(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a valid item ID: \(text)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
