/// Runs bodies one at a time per key, in arrival order; different keys run concurrently.
actor AsyncKeyedMutex<Key: Hashable & Sendable> {
    private var held: Set<Key> = []
    private var waiters: [Key: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` while holding `key`.
    nonisolated func withLock<T: Sendable>(_ key: Key, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(key)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }

    private func acquire(_ key: Key) async {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    private func release(_ key: Key) {
        if var queue = waiters[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[key] = queue.isEmpty ? nil : queue
            next.resume()  // the key stays held, handed to the next waiter
        } else {
            held.remove(key)
        }
    }
}
