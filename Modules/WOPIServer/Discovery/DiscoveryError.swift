import HTTPTypes
public import WOPIHTTPEdge

/// Why a ``DiscoveryClient`` cannot answer: discovery could not be fetched or read, or it lacks what was asked for.
/// Answered `502 Bad Gateway`: the WOPI client, not the request, is at fault.
public struct DiscoveryError: HTTPResponseError, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fetchFailed, unreadable, noProofKey, unusableProofKey, noAction
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The discovery URL or file could not be read (network, status, missing file).
        public static let fetchFailed = Code(.fetchFailed)
        /// The document is not discovery XML.
        public static let unreadable = Code(.unreadable)
        /// Discovery has no `<proof-key>` element, so requests cannot be checked.
        public static let noProofKey = Code(.noProofKey)
        /// The `<proof-key>` element holds no usable RSA key.
        public static let unusableProofKey = Code(.unusableProofKey)
        /// Discovery offers no such action for the file type.
        public static let noAction = Code(.noAction)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What was wrong and what to do.
    public let message: String
    /// The lower-level error, if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        var text = "DiscoveryError.\(code): \(message)"
        if let underlying { text += " (underlying: \(underlying))" }
        return text
    }
}

extension DiscoveryError {
    /// `502` with ``message`` in `X-WOPI-ServerError`.
    public var response: WOPIResponse { WOPIHTTPError(.badGateway, message).response }

    /// What a page says: "Cannot open" and ``message``.
    public var pageMessage: ErrorPageMessage? { ErrorPageMessage(title: "Cannot open", message) }
}
