import PostgresStorage

/// A pool's connection held by a task until ``release()``: with a pool of one, an operation asked for meanwhile
/// waits for it.
struct HeldConnection {
    private let holder: Task<Void, any Error>
    private let releasing: AsyncStream<Void>.Continuation

    /// Returns once the holder has a connection of `pool`; throws what the holder's wait for it threw.
    static func hold(_ pool: PostgresPool) async throws -> HeldConnection {
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await pool.withConnection("hold the connection") { _ in
                holding.yield()
                for await _ in release { break }
            }
        }
        for await _ in held { return HeldConnection(holder: holder, releasing: releasing) }
        // The holder ended without a connection.
        try await holder.value
        throw CancellationError()
    }

    /// Lets the connection go, and waits until the holder has given it back.
    func release() async throws {
        releasing.yield()
        try await holder.value
    }
}
