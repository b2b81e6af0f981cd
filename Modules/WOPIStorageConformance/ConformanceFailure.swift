/// A failed check in a conformance case: what was expected, what happened, and where the check is.
///
/// Thrown by ``StorageConformanceCase/run(_:)`` and ``LockStoreConformanceCase/run(_:)``; a test framework
/// reports it like any other thrown error, and its ``description`` points at the failed check.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What went wrong, in words that say which behaviour of the backend is missing.
    public let message: String
    /// The source file of the failed check.
    public let file: String
    /// The line of the failed check.
    public let line: Int
    /// The error the backend threw, when the failure is an unexpected error.
    public let underlying: (any Error)?

    /// Creates a failure located at the caller.
    ///
    /// - Parameters:
    ///   - message: what was expected and what happened.
    ///   - underlying: the unexpected error behind the failure, if any.
    public init(
        _ message: String, underlying: (any Error)? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        self.message = message
        self.underlying = underlying
        self.file = "\(file)"
        self.line = Int(line)
    }

    public var description: String {
        var text = "\(file):\(line): conformance check failed: \(message)"
        if let underlying { text += " (error: \(underlying))" }
        return text
    }
}
