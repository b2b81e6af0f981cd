public import Foundation

/// Opens the authorization URL in the user's browser, outside the app (RFC 8252 §8.12: never an embedded web view,
/// which could read the user's credentials).
///
/// Open for conformances: ``SystemBrowser`` and ``PrintingUserAgent`` ship here; an iOS or macOS app would wrap
/// `ASWebAuthenticationSession`, and tests use a scripted agent that follows the redirects itself.
public protocol ExternalUserAgent: Sendable {
    /// Opens `url` for the user; returns once the browser was started, not when the user finished.
    func open(_ url: URL) async throws
}
