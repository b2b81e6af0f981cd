import Logging
import Synchronization

/// Answers `GET /readyz`: runs every ``ReadinessCheck`` at once, each bounded by a timeout, and logs when the
/// answer changes (which check failed, and why), so a probe every few seconds does not fill the log.
final class ReadinessProbe: Sendable {
    private let checks: [ReadinessCheck]
    private let timeout: Duration
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let wasReady = Mutex<Bool?>(nil)

    init(checks: [ReadinessCheck], timeout: Duration, clock: any Clock<Duration>, logger: Logger) {
        self.checks = checks
        self.timeout = timeout
        self.clock = clock
        self.logger = logger
    }

    /// Whether every check passed within the timeout.
    func isReady() async -> Bool {
        let failures = await withTaskGroup(of: (String, String)?.self) { group in
            for check in checks {
                group.addTask { [timeout, clock] in await Self.run(check, timeout: timeout, clock: clock) }
            }
            var failures: [(String, String)] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        let ready = failures.isEmpty
        let changed = wasReady.withLock { was in
            defer { was = ready }
            return was != ready
        }
        if changed, ready {
            logger.notice("Ready to serve")
        } else if changed {
            logger.warning(
                "Not ready to serve",
                metadata: ["failed": "\(failures.map { "\($0.0): \($0.1)" }.joined(separator: "; "))"])
        }
        return ready
    }

    /// `nil` when `check` passed in time, else its name and what went wrong. Returns at the deadline even when the
    /// check does not give up (a query that ignores cancellation): the check is cancelled and left to finish.
    private static func run(_ check: ReadinessCheck, timeout: Duration, clock: any Clock<Duration>) async
        -> (String, String)?
    {
        let result: Result<Void, any Error>? = await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let work = Task {
                do {
                    try await check.check()
                    answer.give(.success(()))
                } catch {
                    answer.give(.failure(error))
                }
            }
            let deadline = Task {
                try? await clock.sleep(for: timeout)
                answer.give(nil)
                work.cancel()
            }
            Task {
                _ = await work.result
                deadline.cancel()
            }
        }
        switch result {
        case .success: return nil
        case .failure(let error): return (check.name, "\(error)")
        case nil: return (check.name, "no answer within \(timeout)")
        }
    }
}

/// Resumes a continuation with the first answer given to it and ignores the others.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = Mutex(continuation) }

    func give(_ value: Value) {
        continuation.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume(returning: value)
    }
}
