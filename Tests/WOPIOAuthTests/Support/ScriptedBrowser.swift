import Foundation
import WOPIOAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``ExternalUserAgent`` that behaves like a browser: it GETs the authorize URL and follows the 302 to the
/// loopback redirect URI, in the background, as a real browser tab would after `open` returns.
final class ScriptedBrowser: ExternalUserAgent {
    /// What the tab ended up showing.
    struct Visit: Sendable {
        var openedURL: URL
        var finalURL: URL?
        var status: Int
        var page: String
    }

    private let visits = AsyncStream<Visit>.makeStream()
    private let session: URLSession

    init() {
        session = URLSession(configuration: .ephemeral)
    }

    func open(_ url: URL) async throws {
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
    func nextVisit() async -> Visit? {
        var iterator = visits.stream.makeAsyncIterator()
        return await iterator.next()
    }
}
