import Synchronization

/// The host's external base URL (`https://wopi.example.com`), known from the configured public URL or once the server listens:
/// the origin of the host pages, and so the `PostMessageOrigin` Office for the web checks.
public final class PublicBaseURL: Sendable {
    private let value: Mutex<String?>

    /// A base URL known from the start (`--public-url`), or `nil` until the server listens.
    public init(_ url: String? = nil) { value = Mutex(url.map(Self.trimmed)) }

    /// Sets the URL unless `--public-url` already did.
    public func setIfUnset(_ url: String) { value.withLock { if $0 == nil { $0 = Self.trimmed(url) } } }

    /// The URL, `nil` before the server listens.
    public var url: String? { value.withLock { $0 } }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
