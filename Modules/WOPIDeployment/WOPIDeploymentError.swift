/// A deployment that cannot be assembled as configured; the message says what to change.
public struct WOPIDeploymentError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and how to fix it.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
