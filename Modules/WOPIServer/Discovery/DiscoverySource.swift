public import Foundation
import NIOPosix

/// Where a ``DiscoveryClient`` reads the WOPI client's discovery XML: a fetch function and a name for logs.
///
/// WOPIServer has no HTTP client of its own; pass one in for a URL (the example host uses AsyncHTTPClient):
///
/// ```swift
/// let source = DiscoverySource("https://collabora.example.com/hosting/discovery") {
///     try await myHTTPClient.get("https://collabora.example.com/hosting/discovery")
/// }
/// let fromFile = DiscoverySource.file("/etc/wopi/discovery.xml")
/// ```
public struct DiscoverySource: Sendable, CustomStringConvertible {
    /// The URL or path, for logs and errors.
    public let description: String
    let fetch: @Sendable () async throws -> Data
    /// Reads another document of the WOPI client by URL (its `/hosting/capabilities`); `nil` reads none.
    let fetchURL: (@Sendable (String) async throws -> Data)?

    /// A source that calls `fetch` for the document; a thrown error counts as a failed fetch.
    ///
    /// - Parameter fetchURL: reads a URL that discovery names, such as the client's capabilities (`nil`: the
    ///   client's capabilities are not read).
    public init(
        _ description: String, fetch: @escaping @Sendable () async throws -> Data,
        fetchURL: (@Sendable (String) async throws -> Data)? = nil
    ) {
        self.description = description
        self.fetch = fetch
        self.fetchURL = fetchURL
    }

    /// A discovery file on disk, read on NIO's thread pool (never on the cooperative pool).
    public static func file(_ path: String) -> DiscoverySource {
        DiscoverySource(path) {
            try await NIOThreadPool.singleton.runIfActive {
                try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
    }
}
