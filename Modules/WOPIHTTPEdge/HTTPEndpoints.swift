/// A set of framework-neutral endpoints at fixed paths, such as the OAuth authorization server: what an adapter
/// mounts beside the `WOPIHost`.
///
/// Open for third-party conformances: a provider's own pages can be mounted the same way. Paths start with `/`.
public protocol HTTPEndpoints: Sendable {
    /// The paths answered, for example `/oauth2/token`.
    var paths: [String] { get }

    /// Answers one request to one of ``paths``; failures are responses, never thrown.
    func handle(_ request: WOPIRequest) async -> WOPIResponse
}
