/// Why a string is not valid UTF-7 (RFC 2152).
///
/// Thrown by ``UTF7/decode(_:)``. Match on ``code``; keep a `default` branch, cases may be added.
public struct UTF7Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of defect the input has.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case nonASCII, emptyShift, partialCharacter, nonZeroPaddingBits, unpairedSurrogate
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The input holds a character outside ASCII; UTF-7 is pure 7-bit ASCII.
        public static let nonASCII = Code(.nonASCII)
        /// A `+` is followed by neither base64 nor `-`.
        public static let emptyShift = Code(.emptyShift)
        /// A base64 run ends with 6 or more unused bits (a truncated UTF-16 code unit).
        public static let partialCharacter = Code(.partialCharacter)
        /// A base64 run ends with unused bits that are not zero.
        public static let nonZeroPaddingBits = Code(.nonZeroPaddingBits)
        /// A UTF-16 surrogate is not part of a high–low pair within one base64 run.
        public static let unpairedSurrogate = Code(.unpairedSurrogate)

        public var description: String { base.rawValue }
    }

    /// The kind of defect.
    public let code: Code
    /// The offset, in UTF-8 bytes (equal to characters for ASCII input), where the defect was found.
    public let offset: Int
    /// What is wrong and what to do about it.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public var description: String { "UTF7Error.\(code) at offset \(offset): \(message)" }
}
