/// A key a batch delete (DeleteObjects) could not delete, with S3's reason.
public struct S3DeleteFailure: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var key: String
    /// S3's error code (`AccessDenied`, `InternalError`).
    public var code: String
    /// S3's message.
    public var message: String

    /// A failure of one key.
    public init(key: String, code: String, message: String) {
        self.key = key
        self.code = code
        self.message = message
    }

    public var description: String { "\(key): \(code) (\(message))" }
}
