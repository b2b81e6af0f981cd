/// When and how long an ``S3ObjectStore`` waits before sending a failed request again: exponential backoff with full
/// jitter (each wait is a random time up to `baseDelay × 2^(attempt − 1)`, capped at `maxDelay`), honouring a
/// `Retry-After` header.
///
/// Retried: a `5xx` answer, a `503 SlowDown` and a connection that broke, for idempotent requests only (reads, `PUT`s
/// of a body held in memory, deletes, part uploads); a request that is not idempotent (creating or completing a
/// multipart upload, a conditional `PUT`) is retried only on `503 SlowDown`, which S3 sends before doing anything; a
/// request whose body is streamed is never retried, since its body cannot be sent twice. A server that cannot be
/// connected to is not retried: AsyncHTTPClient already keeps trying to connect for its connect timeout, so a dead
/// endpoint fails a request in that time (3 s with ``S3ObjectStore/recommendedHTTPClientConfiguration``) rather than
/// in every attempt's.
///
/// Tests inject ``sleep`` (and ``random``) so that no test really waits.
public struct S3RetryPolicy: Sendable {
    /// How many times a request is sent at most, the first time included. Default 4.
    public var maxAttempts: Int
    /// The longest first wait. Default 100 ms.
    public var baseDelay: Duration
    /// The longest wait, whatever the attempt or `Retry-After`. Default 5 s.
    public var maxDelay: Duration
    /// Waits (`Task.sleep(for:)` by default; it throws when the task is cancelled).
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A random number in `0..<1`, the jitter (the system's generator by default).
    public var random: @Sendable () -> Double

    /// A policy; every parameter has a production default.
    public init(
        maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(100), maxDelay: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        precondition(maxAttempts >= 1, "A request is sent at least once.")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.sleep = sleep
        self.random = random
    }

    /// No retries: each request is sent once.
    public static var none: S3RetryPolicy { S3RetryPolicy(maxAttempts: 1) }

    /// The wait after failed attempt `attempt` (1 for the first): a random part of the exponential ceiling, at
    /// least `retryAfter` when the server sent one, at most ``maxDelay``.
    public func delay(afterAttempt attempt: Int, retryAfter: Duration? = nil) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(baseDelay * (1 << exponent), maxDelay)
        let jittered = ceiling * min(max(random(), 0), 1)
        guard let retryAfter else { return jittered }
        return min(max(jittered, retryAfter), maxDelay)
    }
}
