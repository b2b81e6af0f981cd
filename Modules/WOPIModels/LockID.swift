/// A WOPI lock ID: an opaque string of 1 to 1024 ASCII characters, compared byte for byte.
///
/// Office's lock IDs are currently small JSON objects; treat them as opaque.
public struct LockID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The longest lock ID (`SupportsExtendedLockLength`).
    public static let maximumLength = 1024
    /// The length clients assume unless the host advertises `SupportsExtendedLockLength`.
    public static let classicMaximumLength = 256

    /// The lock ID as sent.
    public let rawValue: String

    /// Creates a lock ID, or `nil` when the value is empty, longer than 1024 characters, or not printable ASCII.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength,
            rawValue.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
