#if TLS
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
    public import WOPIServer

    extension DiscoverySource {
        /// Discovery fetched over HTTP(S) with AsyncHTTPClient's shared client (30 s timeout, 8 MiB at most), and the
        /// client's capabilities the same way.
        public static func http(_ url: String) -> DiscoverySource {
            DiscoverySource(
                url, fetch: { try await get(url, accept: "application/xml, text/xml") },
                fetchURL: { try await get($0, accept: "application/json") })
        }

        private static func get(_ url: String, accept: String) async throws -> Data {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: accept)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
            guard response.status == .ok else {
                throw DiscoveryError(.fetchFailed, "GET \(url) answered \(response.status.code).")
            }
            return Data(buffer: body)
        }
    }
#endif
