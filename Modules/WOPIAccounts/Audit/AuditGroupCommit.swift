public import Logging
import Synchronization

/// Writes the audit events that requests record at the same time in one batch: one `write` to a file, one
/// transaction or one `INSERT` of many rows, instead of one each.
///
/// Events are written in the order they came, whether recorded or submitted, one batch at a time.
/// - ``record(_:)`` returns only once its event is written (or throws what writing it threw). The first caller to
///   find no batch being written writes its own event at once, after the submitted events that wait. Callers that
///   come while a batch is being written wait; when it is done, the writer hands what came meanwhile to the first of
///   those callers, which writes it all as the next batch. Nobody writes more than one batch, so a busy log never
///   keeps one request waiting for the others.
/// - ``submit(_:reportingFailuresTo:)`` returns at once: its event waits for the next batch, which a recording caller
///   or a flush writes, or else a task of its own ``submittedDelay`` after the first event that found nothing
///   scheduled; a failure to write it goes to the caller's handler. Only when ``queueLimit`` events already wait does
///   a submitting caller write (or wait) as a recording one does.
/// - ``flush()`` returns once every event that came before it is written or has failed.
///
/// A log of your own that writes batches conforms to ``GroupCommitAuditLog``: it gives its `AuditGroupCommit`, which
/// records, submits and flushes for it.
public final class AuditGroupCommit: Sendable {
    /// How many events may wait before ``submit(_:reportingFailuresTo:)`` waits too.
    public static let queueLimit = 1_024
    /// How long a submitted event waits for a batch that would carry it, at most, before a task writes it.
    public static let submittedDelay = Duration.milliseconds(50)

    /// What a waiting caller is told when it resumes.
    private enum Turn: Sendable {
        /// Its event was written (or, for a flush, every event before it went).
        case written
        /// Writing its event threw this.
        case failed(any Error)
        /// It writes the next batch, its own event included.
        case write([Entry])
    }

    /// One place in a batch, and who hears how writing it went.
    private enum Entry: Sendable {
        /// The event of the caller writing the batch (none for a flush); it learns the outcome from the write.
        case writer(AuditEvent?)
        /// The event of a caller of ``record(_:)`` that waits for it.
        case recorded(AuditEvent, CheckedContinuation<Turn, Never>)
        /// A submitted event, nobody waiting; a failure goes to `report`.
        case submitted(AuditEvent, report: @Sendable (any Error) -> Void)
        /// A caller of ``flush()``, waiting for the events before it.
        case flush(CheckedContinuation<Turn, Never>)

        var event: AuditEvent? {
            switch self {
            case .writer(let event): event
            case .recorded(let event, _), .submitted(let event, _): event
            case .flush: nil
            }
        }

        /// The entry as the writer of its batch, when a caller waits on it.
        var asWriter: (Entry, CheckedContinuation<Turn, Never>)? {
            switch self {
            case .recorded(let event, let continuation): (.writer(event), continuation)
            case .flush(let continuation): (.writer(nil), continuation)
            case .writer, .submitted: nil
            }
        }

        /// Tells the entry's caller how its batch went.
        func tell(_ outcome: Result<Void, any Error>) {
            switch (self, outcome) {
            case (.writer, _), (.submitted, .success): break
            case (.recorded(_, let continuation), .success), (.flush(let continuation), _):
                continuation.resume(returning: .written)
            case (.recorded(_, let continuation), .failure(let error)): continuation.resume(returning: .failed(error))
            case (.submitted(_, let report), .failure(let error)): report(error)
            }
        }
    }

    private struct State {
        /// Whether a batch is being written.
        var writing = false
        /// What came while it was, or submitted events that no batch has taken yet, in order.
        var waiting: [Entry] = []
        /// Whether a task will write the submitted events after ``submittedDelay``.
        var scheduled = false

        /// Takes what waits, followed by `entry`, as the batch of a caller that finds no batch being written.
        mutating func lead(with entry: Entry) -> [Entry] {
            writing = true
            defer { waiting.removeAll() }
            return waiting + [entry]
        }
    }

    private let state = Mutex(State())
    private let writeBatch: @Sendable ([AuditEvent]) async throws -> Void
    private let clock: any Clock<Duration>

    /// A group commit that writes each batch, events in the order they came, with `writeBatch`; submitted events
    /// wait on `clock`.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        writeBatch: @escaping @Sendable ([AuditEvent]) async throws -> Void
    ) {
        self.clock = clock
        self.writeBatch = writeBatch
    }

    /// How many events and flushes wait for a batch (what tests watch).
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Writes `event` in the next batch, and returns when it is written.
    public func record(_ event: AuditEvent) async throws {
        let batch = state.withLock { state in state.writing ? nil : state.lead(with: .writer(event)) }
        if let batch { return try await write(batch).get() }
        let turn = await withCheckedContinuation { continuation in
            // The batch may have ended between the check above and here.
            let batch = state.withLock { state -> [Entry]? in
                guard state.writing else { return state.lead(with: .writer(event)) }
                state.waiting.append(.recorded(event, continuation))
                return nil
            }
            if let batch { continuation.resume(returning: .write(batch)) }
        }
        switch turn {
        case .written: return
        case .failed(let error): throw error
        case .write(let batch): try await write(batch).get()
        }
    }

    /// Puts `event` in the queue for the next batch and returns, without waiting for it to be written, unless
    /// ``queueLimit`` events already wait; a failure to write it goes to `report`.
    package func submit(_ event: AuditEvent, reportingFailuresTo report: @escaping @Sendable (any Error) -> Void)
        async
    {
        enum Place { case queued, schedules, full }
        let place = state.withLock { state -> Place in
            guard state.waiting.count < Self.queueLimit else { return .full }
            state.waiting.append(.submitted(event, report: report))
            guard !state.writing, !state.scheduled else { return .queued }
            state.scheduled = true
            return .schedules
        }
        switch place {
        case .queued: return
        case .schedules: schedule()
        case .full:
            do { try await record(event) } catch { report(error) }
        }
    }

    /// ``submit(_:reportingFailuresTo:)`` with a failure logged to `logger`, as the logs' own `submit` does.
    public func submit(_ event: AuditEvent, reportingFailuresTo logger: Logger) async {
        await submit(event) { error in logger.auditLogRefused(event, error) }
    }

    /// Returns once every event that came before is written or has failed.
    public func flush() async {
        let turn = await withCheckedContinuation { continuation in
            let batch = state.withLock { state -> [Entry]? in
                guard state.writing else { return state.waiting.isEmpty ? [] : state.lead(with: .writer(nil)) }
                state.waiting.append(.flush(continuation))
                return nil
            }
            if let batch { continuation.resume(returning: batch.isEmpty ? .written : .write(batch)) }
        }
        if case .write(let batch) = turn { _ = await write(batch) }
    }

    /// Writes the submitted events that wait after ``submittedDelay``, unless a batch has taken them by then.
    /// Detached: the batch belongs to no one request, so it takes neither a request's trace context nor its executor.
    private func schedule() {
        Task.detached { [self, clock] in
            try? await clock.sleep(for: Self.submittedDelay)
            let batch = state.withLock { state -> [Entry]? in
                state.scheduled = false
                return state.writing || state.waiting.isEmpty ? nil : state.lead(with: .writer(nil))
            }
            if let batch { _ = await write(batch) }
        }
    }

    /// Writes the events of `batch`, tells its callers, and hands the next batch on.
    private func write(_ batch: [Entry]) async -> Result<Void, any Error> {
        let events = batch.compactMap(\.event)
        let outcome: Result<Void, any Error>
        do {
            if !events.isEmpty { try await writeBatch(events) }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        for entry in batch { entry.tell(outcome) }
        handOn()
        return outcome
    }

    /// Gives what came during a batch to the first caller among it that waits (a recording caller or a flush), to
    /// write as the next batch. Submitted events that no caller waits behind stay queued for the next batch, and a
    /// task is scheduled to write them if none is.
    private func handOn() {
        enum Next { case none, write([Entry], CheckedContinuation<Turn, Never>), schedule }
        let next = state.withLock { state -> Next in
            if let index = state.waiting.firstIndex(where: { $0.asWriter != nil }),
                let (writer, continuation) = state.waiting[index].asWriter
            {
                var batch = state.waiting
                batch[index] = writer
                state.waiting.removeAll()
                return .write(batch, continuation)
            }
            state.writing = false
            guard !state.waiting.isEmpty, !state.scheduled else { return .none }
            state.scheduled = true
            return .schedule
        }
        switch next {
        case .none: break
        case .write(let batch, let continuation): continuation.resume(returning: .write(batch))
        case .schedule: schedule()
        }
    }
}

/// An ``AuditLog`` that writes the events recorded at the same time in one batch: it gives its ``batches``, which
/// record, submit and flush its events, and answers ``AuditLog/events(matching:)`` itself (after a flush).
///
/// ```swift
/// final class DatabaseAuditLog: GroupCommitAuditLog {
///     let database: MyDatabase
///     let batches: AuditGroupCommit
///
///     init(database: MyDatabase) {
///         self.database = database
///         batches = AuditGroupCommit { events in try await database.insert(events) }
///     }
///
///     func events(matching query: AuditQuery) async throws -> [AuditEvent] {
///         await batches.flush()
///         return try await database.events(matching: query)
///     }
/// }
/// ```
public protocol GroupCommitAuditLog: AuditLog {
    /// The group commit every event of the log goes through.
    var batches: AuditGroupCommit { get }
}

extension GroupCommitAuditLog {
    /// Writes `event` in the next batch of ``batches``, and returns when it is written.
    public func record(_ event: AuditEvent) async throws {
        try await batches.record(event)
    }

    /// Queues `event` for the next batch of ``batches``; a failure to write it goes to `logger`.
    public func submit(_ event: AuditEvent, reportingFailuresTo logger: Logger) async {
        await batches.submit(event, reportingFailuresTo: logger)
    }

    /// Returns once every event of ``batches`` that came before is written or has failed.
    public func flush() async {
        await batches.flush()
    }
}

extension [AuditEvent] {
    /// What writing these events is, for an error's message: "record the audit event open", "record 3 audit events".
    package var recordingAction: String {
        count == 1 ? "record the audit event \(self[0].action)" : "record \(count) audit events"
    }
}
