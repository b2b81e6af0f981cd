public import Foundation
public import WOPIOAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-process ``WOPIOAuth/ExternalUserAgent`` that behaves like a browser: it GETs the authorize URL and
/// follows the 302 to the loopback redirect URI, in the background, as a real browser tab would after `open`
/// returns. (``ScriptedBrowser`` writes `$BROWSER` scripts for child processes instead.)
public final class ScriptedUserAgent: ExternalUserAgent {
    /// What the tab ended up showing.
    public struct Visit: Sendable {
        /// The URL the agent was asked to open.
        public var openedURL: URL
        /// The URL after redirects, `nil` when the request failed.
        public var finalURL: URL?
        /// The final HTTP status, `-1` when the request failed.
        public var status: Int
        /// The final page, or the error.
        public var page: String
    }

    private let visits = AsyncStream<Visit>.makeStream()
    private let session: URLSession

    /// Creates an agent with its own ephemeral URL session.
    public init() {
        session = URLSession(configuration: .ephemeral)
    }

    public func open(_ url: URL) async throws {
        let session = self.session
        let continuation = visits.continuation
        Task {
            do {
                let (data, response) = try await session.data(from: url)
                let http = response as? HTTPURLResponse
                continuation.yield(
                    Visit(
                        openedURL: url, finalURL: http?.url, status: http?.statusCode ?? 0,
                        page: String(decoding: data, as: UTF8.self)))
            } catch {
                continuation.yield(Visit(openedURL: url, finalURL: nil, status: -1, page: "\(error)"))
            }
        }
    }

    /// The next finished visit.
    public func nextVisit() async -> Visit? {
        var iterator = visits.stream.makeAsyncIterator()
        return await iterator.next()
    }
}
