import Foundation

/// The newest WOPI access token known per endpoint, with one refresh in flight per endpoint.
///
/// Resources are values that carry the token they were handed out with; after a GetNewAccessToken the newer
/// token lives here, so every holder of the old value benefits.
actor TokenCache {
    struct Entry: Sendable {
        var token: String
        var expiry: Date?
    }

    private var entries: [URL: Entry] = [:]
    private var inFlight: [URL: Task<Entry, any Error>] = [:]

    /// The token to use for `resource`: the cached one unless the resource's own is known to live longer.
    func token(for resource: WOPIResource) -> Entry? {
        let own = resource.accessToken.map { Entry(token: $0, expiry: resource.accessTokenExpiry) }
        guard let cached = entries[resource.endpoint] else { return own }
        guard let own else { return cached }
        if let ownExpiry = own.expiry, ownExpiry > (cached.expiry ?? .distantPast) { return own }
        return cached
    }

    /// Remembers a token learned elsewhere (for example from the bootstrapper).
    func store(_ entry: Entry, for endpoint: URL) {
        entries[endpoint] = entry
    }

    /// Returns a token other than `rejected` for `endpoint`, fetching one with `fetch` unless another caller
    /// already did or is doing so.
    func refresh(
        _ endpoint: URL, rejected: String?, fetch: @escaping @Sendable () async throws -> Entry
    ) async throws -> Entry {
        if let cached = entries[endpoint], cached.token != rejected { return cached }
        if let task = inFlight[endpoint] { return try await task.value }
        let task = Task { try await fetch() }
        inFlight[endpoint] = task
        defer { inFlight[endpoint] = nil }
        let entry = try await task.value
        entries[endpoint] = entry
        return entry
    }
}
