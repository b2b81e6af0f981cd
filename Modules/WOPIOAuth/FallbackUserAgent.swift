public import Foundation

/// An ``ExternalUserAgent`` that tries one agent and, when it cannot open the URL, another: typically
/// ``SystemBrowser`` first, then ``PrintingUserAgent``, so a user on an SSH session or a machine without a browser
/// can still open the printed URL on another device while the loopback listener waits (RFC 8252 §7.3).
public struct FallbackUserAgent: ExternalUserAgent {
    /// The agent tried first.
    public var primary: any ExternalUserAgent
    /// The agent used when ``primary`` throws.
    public var fallback: any ExternalUserAgent

    /// Creates an agent that tries `primary`, then `fallback`.
    public init(
        primary: any ExternalUserAgent = SystemBrowser(), fallback: any ExternalUserAgent = PrintingUserAgent()
    ) {
        self.primary = primary
        self.fallback = fallback
    }

    /// Opens `url` with ``primary``, or with ``fallback`` when that fails.
    ///
    /// - Throws: what ``fallback`` throws.
    public func open(_ url: URL) async throws {
        do {
            try await primary.open(url)
        } catch {
            try await fallback.open(url)
        }
    }
}
