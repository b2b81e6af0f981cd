import Foundation

/// Bounds how many password hashes (scrypt, about 0.1 s of CPU and 32 MiB each) run at once, so that a flood of
/// sign-ins cannot starve WOPI requests of CPU and memory.
///
/// At most `concurrency` hashes run; up to `queueLimit` more wait, each at most `maximumWait` on `clock`. A
/// request beyond the queue, or one that waited too long, is refused at once (the server answers 503 with
/// `Retry-After`).
package actor PasswordHashLimiter {
    private let concurrency: Int
    private let queueLimit: Int
    private let maximumWait: Duration
    private let clock: any Clock<Duration>
    private var running = 0
    private var nextID = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    /// The most hashes that ran at once, for tests.
    package private(set) var peak = 0

    init(_ limits: OAuthAuthorizationServer.Configuration.PasswordHashLimits, clock: any Clock<Duration>) {
        concurrency = max(1, limits.concurrency)
        queueLimit = max(0, limits.queueLimit)
        maximumWait = limits.maximumWait
        self.clock = clock
    }

    /// Runs `body` once a slot is free; `nil` (without running it) when the queue is full or the wait too long.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T? {
        guard await acquire() else { return nil }
        let result = await body()
        release()
        return result
    }

    private func acquire() async -> Bool {
        if running < concurrency {
            running += 1
            peak = max(peak, running)
            return true
        }
        guard waiters.count < queueLimit else { return false }
        nextID += 1
        let id = nextID
        let timeout = Task { [clock, maximumWait] in
            try await clock.sleep(for: maximumWait)
            self.expire(id)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { waiters.append((id, $0)) }
    }

    private func release() {
        if waiters.isEmpty {
            running -= 1
        } else {
            waiters.removeFirst().continuation.resume(returning: true)
        }
    }

    private func expire(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }
}
