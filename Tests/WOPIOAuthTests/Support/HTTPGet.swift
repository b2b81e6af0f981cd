import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A plain GET over a fresh ephemeral session, as a browser tab would do it.
func httpGet(_ url: URL) async throws -> (status: Int, body: String) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(from: url)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}
