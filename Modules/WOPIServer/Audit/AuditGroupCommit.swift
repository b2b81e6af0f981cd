import Synchronization

/// Writes the audit events that requests record at the same time in one batch: one `write` to a file, one
/// transaction or one `INSERT` of many rows, instead of one each.
///
/// Every ``record(_:)`` still returns only once its event is written (or throws what writing it threw), and events
/// are written in the order they were recorded. The first caller to find no batch being written writes its own
/// event at once. Callers that come while a batch is being written wait; when it is done, the writer hands the
/// events that came meanwhile to the first of those callers, which writes them all as the next batch. No task is
/// started and nobody writes more than one batch, so a busy log never keeps one request waiting for the others.
package final class AuditGroupCommit: Sendable {
    /// What a waiting caller is told when it resumes.
    private enum Turn: Sendable {
        /// Its event was written.
        case written
        /// Writing its event threw this.
        case failed(any Error)
        /// It writes the next batch: its event, then these callers' events.
        case write(followers: [Waiter])
    }

    private struct Waiter: Sendable {
        let event: AuditEvent
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        /// Whether a caller is writing a batch.
        var writing = false
        /// The callers that came while it was, in order.
        var waiting: [Waiter] = []
    }

    private let state = Mutex(State())
    private let writeBatch: @Sendable ([AuditEvent]) async throws -> Void

    /// A group commit that writes each batch, events in the order recorded, with `writeBatch`.
    package init(writeBatch: @escaping @Sendable ([AuditEvent]) async throws -> Void) {
        self.writeBatch = writeBatch
    }

    /// How many callers wait for the batch being written to end (what tests watch).
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Writes `event` in the next batch, and returns when it is written.
    package func record(_ event: AuditEvent) async throws {
        let leads = state.withLock { state in
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        var followers: [Waiter] = []
        if !leads {
            let turn = await withCheckedContinuation { continuation in
                let leadsNow = state.withLock { state in
                    // The batch may have ended between the check above and here.
                    guard state.writing else {
                        state.writing = true
                        return true
                    }
                    state.waiting.append(Waiter(event: event, continuation: continuation))
                    return false
                }
                if leadsNow { continuation.resume(returning: .write(followers: [])) }
            }
            switch turn {
            case .written: return
            case .failed(let error): throw error
            case .write(let next): followers = next
            }
        }
        try await write(event, followers: followers)
    }

    /// Writes `event` and the followers' events, tells the followers, and hands the next batch on.
    private func write(_ event: AuditEvent, followers: [Waiter]) async throws {
        let outcome: Result<Void, any Error>
        do {
            try await writeBatch([event] + followers.map(\.event))
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        for follower in followers {
            switch outcome {
            case .success: follower.continuation.resume(returning: .written)
            case .failure(let error): follower.continuation.resume(returning: .failed(error))
            }
        }
        let next = state.withLock { state -> [Waiter] in
            let next = state.waiting
            state.waiting.removeAll()
            if next.isEmpty { state.writing = false }
            return next
        }
        if let first = next.first {
            first.continuation.resume(returning: .write(followers: Array(next.dropFirst())))
        }
        try outcome.get()
    }
}
