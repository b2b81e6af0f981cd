public import Foundation

/// An ``ExternalUserAgent`` that prints the URL for the user to open by hand (for SSH sessions and headless hosts).
public struct PrintingUserAgent: ExternalUserAgent {
    private let write: @Sendable (String) -> Void

    /// Creates an agent that prints to standard error, or to `write`.
    public init(write: @escaping @Sendable (String) -> Void = PrintingUserAgent.writeToStandardError) {
        self.write = write
    }

    /// Prints `url` with a short instruction.
    public func open(_ url: URL) async throws {
        write("Open this URL in a browser to sign in:\n\n    \(url.absoluteString)\n\n")
    }

    /// Writes text to standard error.
    public static let writeToStandardError: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data(text.utf8))
    }
}
