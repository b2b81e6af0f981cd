/// A `wopi-host` child process that failed to start or a subcommand that failed; the text has its output.
public struct HostProcessError: Error, CustomStringConvertible {
    /// What went wrong, with the process's output.
    public let description: String

    /// An error with `description`.
    public init(_ description: String) { self.description = description }
}
