import Foundation

extension OAuthHTTPTransport {
    /// Sends a request, wrapping any failure to get a response as ``OAuthError/Code/transport``.
    func perform(_ request: OAuthHTTPRequest) async throws(OAuthError) -> OAuthHTTPResponse {
        do {
            return try await send(request)
        } catch let error as OAuthError {
            throw error
        } catch is CancellationError {
            throw OAuthError(.cancelled, "The request to \(request.url.absoluteString) was cancelled.")
        } catch {
            throw OAuthError(
                .transport,
                "Could not reach \(request.url.absoluteString); check the network and the URL, then try again.",
                underlying: error)
        }
    }
}
