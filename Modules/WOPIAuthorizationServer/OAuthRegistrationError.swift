import WOPIModels
import WOPIOAuthCore

/// Why a client could not be registered.
///
/// Thrown by ``OAuthClient`` when its ID or a redirect URI breaks the rules of RFC 6749 and RFC 8252; the
/// ``message`` says what to change.
public struct OAuthRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The client ID is empty, too long or has characters outside `A-Z a-z 0-9 - . _ ~`.
        public static let invalidClientID = Code("invalidClientID")
        /// A redirect URI is not allowed (see ``OAuthClient/validateRedirectURI(_:)``).
        public static let invalidRedirectURI = Code("invalidRedirectURI")
        /// The client has no redirect URI.
        public static let missingRedirectURI = Code("missingRedirectURI")
        /// A confidential client's secret is too short.
        public static let weakSecret = Code("weakSecret")

        public var description: String { name }
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
