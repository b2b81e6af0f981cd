/// Why a WOPI wire value (a header, an Office URL, a discovery document, a sign-in URL) could not be read.
///
/// Match on ``code``; keep a `default` branch, cases may be added. ``format`` names the value that was read.
public struct WOPIFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of defect the value has.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case malformed, missingField, invalidValue
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The value does not follow the syntax of its format.
        public static let malformed = Code(.malformed)
        /// A required part is absent.
        public static let missingField = Code(.missingField)
        /// A part is present but its value cannot be used.
        public static let invalidValue = Code(.invalidValue)

        public var description: String { base.rawValue }
    }

    /// The kind of defect.
    public let code: Code
    /// The value that was read, for example `WWW-Authenticate` or `Office URL`.
    public let format: String
    /// What is wrong and what to do about it.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, format: String, _ message: String) {
        self.code = code
        self.format = format
        self.message = message
    }

    public var description: String { "WOPIFormatError.\(code) in \(format): \(message)" }
}
