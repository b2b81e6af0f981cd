/// Why proof-key material from discovery cannot be used to build a ``ProofKeyValidator``.
public struct ProofKeyError: Error, Sendable, CustomStringConvertible {
    /// What was wrong and what to do.
    public let message: String
    /// The lower-level error (a `WOPIFormatError` or a crypto error), if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ message: String, underlying: (any Error & Sendable)? = nil) {
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        var text = "ProofKeyError: \(message)"
        if let underlying { text += " (underlying: \(underlying))" }
        return text
    }
}
