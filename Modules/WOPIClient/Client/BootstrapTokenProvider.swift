/// Hands the ``WOPIClient`` OAuth access tokens for the bootstrapper (Bootstrap, GetRootContainer and
/// GetNewAccessToken).
///
/// WOPIClient does not depend on an OAuth library: conform a small adapter over yours (the `wopi` tool adapts
/// `WOPIOAuth.OAuthSession`). This protocol is open for third-party conformances.
public protocol BootstrapTokenProvider: Sendable {
    /// A currently valid OAuth access token.
    ///
    /// - Throws: when none can be had (for example the user must sign in again).
    func accessToken() async throws -> String

    /// Reports that the bootstrapper rejected `accessToken` (HTTP 401); the next ``accessToken()`` should return
    /// a fresh one (refresh it) or throw.
    func invalidate(accessToken: String) async
}

/// A ``BootstrapTokenProvider`` with one fixed token, for tests and scripts that already hold a token.
public struct StaticBootstrapTokenProvider: BootstrapTokenProvider {
    private let token: String

    /// Creates a provider that always returns `token`.
    public init(token: String) { self.token = token }

    public func accessToken() async throws -> String { token }

    public func invalidate(accessToken: String) async {}
}
