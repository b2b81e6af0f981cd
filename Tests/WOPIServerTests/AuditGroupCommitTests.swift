import Foundation
import NIOCore
import Synchronization
import Testing
import WOPIServer
import WOPITestSupport

/// `AuditGroupCommit`: events recorded while a batch is written go out together in the next one, each once, in
/// order; every caller returns only after its own batch, with its error. Submitted events wait for the next batch
/// (a record's, a flush's, or their own after `submittedDelay` on the injected clock) and keep their turn.
@Suite struct AuditGroupCommitTests {
    /// A batch writer that records what it wrote and, while `held`, waits for `release()` before writing.
    final class Recorder: Sendable {
        private let state = Mutex<(batches: [[AuditEvent]], gate: CheckedContinuation<Void, Never>?, held: Bool)>(
            ([], nil, false))
        /// The batch sizes that throw.
        let failing: Set<Int>

        init(holdingTheFirstBatch held: Bool = false, failing: Set<Int> = []) {
            self.failing = failing
            state.withLock { $0.held = held }
        }

        var batches: [[AuditEvent]] { state.withLock { $0.batches } }

        func write(_ events: [AuditEvent]) async throws {
            if state.withLock({ $0.held }) {
                await withCheckedContinuation { continuation in state.withLock { $0.gate = continuation } }
            }
            state.withLock { $0.batches.append(events) }
            if failing.contains(events.count) { throw CocoaError(.fileWriteOutOfSpace) }
        }

        /// Whether the first batch waits for ``release()``.
        var isHolding: Bool { state.withLock { $0.gate != nil } }

        func release() {
            let gate = state.withLock { state in
                state.held = false
                defer { state.gate = nil }
                return state.gate
            }
            gate?.resume()
        }
    }

    static func event(_ index: Int) -> AuditEvent {
        AuditEvent(.open, at: Date(timeIntervalSince1970: Double(index)), userID: "u\(index)", itemID: "f")
    }

    /// Waits, yielding, until `condition` holds (no clock: the other tasks only need turns).
    static func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func recordsOneAfterAnotherAreBatchesOfOneInOrder() async throws {
        let recorder = Recorder()
        let commit = AuditGroupCommit(writeBatch: recorder.write)
        for index in 0..<5 { try await commit.record(Self.event(index)) }
        #expect(recorder.batches == (0..<5).map { [Self.event($0)] })
    }

    @Test func recordsThatComeDuringAWriteGoOutTogetherInTheNextBatch() async throws {
        let recorder = Recorder(holdingTheFirstBatch: true)
        let commit = AuditGroupCommit(writeBatch: recorder.write)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.record(Self.event(0)) }
            await Self.waitUntil { recorder.isHolding }
            for index in 1...20 {
                group.addTask { try await commit.record(Self.event(index)) }
            }
            await Self.waitUntil { commit.waitingCount == 20 }
            recorder.release()
            try await group.waitForAll()
        }
        let batches = recorder.batches
        #expect(batches.count == 2)
        #expect(batches.first == [Self.event(0)])
        #expect(Set(batches.last ?? []) == Set((1...20).map(Self.event)))
        #expect(batches.last?.count == 20)
        #expect(commit.waitingCount == 0)
    }

    @Test func everyCallerOfAFailedBatchGetsTheErrorAndTheNextBatchIsWritten() async throws {
        let recorder = Recorder(holdingTheFirstBatch: true, failing: [3])
        let commit = AuditGroupCommit(writeBatch: recorder.write)
        let failures = await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await commit.record(Self.event(0))) == nil }
            await Self.waitUntil { recorder.isHolding }
            for index in 1...3 {
                group.addTask { (try? await commit.record(Self.event(index))) == nil }
            }
            await Self.waitUntil { commit.waitingCount == 3 }
            recorder.release()
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 3)
        try await commit.record(Self.event(4))
        #expect(recorder.batches.map(\.count) == [1, 3, 1])
    }

    @Test func manyConcurrentRecordsEachLandOnce() async throws {
        let recorder = Recorder()
        let commit = AuditGroupCommit(writeBatch: recorder.write)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask { try await commit.record(Self.event(index)) }
            }
            try await group.waitForAll()
        }
        let written = recorder.batches.flatMap { $0 }
        #expect(written.count == 500)
        #expect(Set(written) == Set((0..<500).map(Self.event)))
        #expect(commit.waitingCount == 0)
    }

    /// A group commit on a ``Recorder`` and a test clock, with the failures that its submitted events report.
    final class Submitting: Sendable {
        let recorder: Recorder
        let clock = TestClock()
        let commit: AuditGroupCommit
        private let failures = Mutex<[String]>([])

        init(holdingTheFirstBatch held: Bool = false, failing: Set<Int> = []) {
            recorder = Recorder(holdingTheFirstBatch: held, failing: failing)
            commit = AuditGroupCommit(clock: clock, writeBatch: recorder.write)
        }

        /// What writing the submitted events threw, as their handler was told.
        var failed: [String] { failures.withLock { $0 } }

        func submit(_ index: Int) async {
            await commit.submit(AuditGroupCommitTests.event(index)) { [self] error in
                failures.withLock { $0.append("\(error)") }
            }
        }
    }

    @Test func submittedEventsWaitForTheDelayThenGoOutAsOneBatch() async throws {
        let fixture = Submitting()
        let (recorder, clock, commit) = (fixture.recorder, fixture.clock, fixture.commit)
        for index in 0..<5 { await fixture.submit(index) }
        await clock.waitForSleepers(1)
        #expect(recorder.batches.isEmpty, "nothing is written before the delay")
        #expect(commit.waitingCount == 5)
        clock.advance(by: AuditGroupCommit.submittedDelay - .milliseconds(1))
        await Task.yield()
        #expect(recorder.batches.isEmpty)
        clock.advance(by: .milliseconds(1))
        await Self.waitUntil { !recorder.batches.isEmpty }
        #expect(recorder.batches == [(0..<5).map(Self.event)])
        #expect(commit.waitingCount == 0 && fixture.failed.isEmpty)
        // The next submission schedules a write of its own again.
        await fixture.submit(5)
        await clock.waitForSleepers(1)
        clock.advance(by: AuditGroupCommit.submittedDelay)
        await Self.waitUntil { recorder.batches.count == 2 }
        #expect(recorder.batches.last == [Self.event(5)])
    }

    @Test func aRecordCarriesTheSubmittedEventsBeforeItsOwn() async throws {
        let fixture = Submitting()
        let (recorder, clock, commit) = (fixture.recorder, fixture.clock, fixture.commit)
        for index in 0..<3 { await fixture.submit(index) }
        try await commit.record(Self.event(3))
        await fixture.submit(4)
        await commit.flush()
        #expect(recorder.batches == [(0...3).map(Self.event), [Self.event(4)]])
        // The write scheduled by the first submission finds nothing left.
        await clock.waitForSleepers(1)
        clock.advance(by: AuditGroupCommit.submittedDelay)
        await Self.waitUntil { clock.sleeperCount == 0 }
        await Task.yield()
        #expect(recorder.batches.count == 2 && fixture.failed.isEmpty)
    }

    @Test func submittedDuringAWriteKeepTheirTurnAndAFailureIsReported() async throws {
        let fixture = Submitting(holdingTheFirstBatch: true, failing: [3])
        let (recorder, commit) = (fixture.recorder, fixture.commit)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.record(Self.event(0)) }
            await Self.waitUntil { recorder.isHolding }
            await fixture.submit(1)
            group.addTask { await #expect(throws: CocoaError.self) { try await commit.record(Self.event(2)) } }
            await Self.waitUntil { commit.waitingCount == 2 }
            await fixture.submit(3)
            recorder.release()
            try await group.waitForAll()
        }
        // Event 2's caller writes what came during the first batch, in order: 1, 2, 3; that batch of 3 fails.
        #expect(recorder.batches == [[Self.event(0)], [1, 2, 3].map(Self.event)])
        #expect(fixture.failed.count == 2, "each submitted event of the failed batch is reported")
    }

    @Test func submittingPastTheQueueLimitWaitsAsARecordDoes() async throws {
        let fixture = Submitting(holdingTheFirstBatch: true)
        let (recorder, commit) = (fixture.recorder, fixture.commit)
        let past = AuditGroupCommit.queueLimit + 1
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.record(Self.event(0)) }
            await Self.waitUntil { recorder.isHolding }
            for index in 1..<past { await fixture.submit(index) }
            group.addTask { await fixture.submit(past) }
            await Self.waitUntil { commit.waitingCount == past }
            #expect(recorder.batches.isEmpty, "the submission past the limit waits behind the held batch")
            recorder.release()
            try await group.waitForAll()
        }
        #expect(recorder.batches.flatMap { $0 } == (0...past).map(Self.event))
        #expect(fixture.failed.isEmpty && commit.waitingCount == 0)
    }

    @Test func flushReturnsOnceEverythingBeforeItIsWritten() async throws {
        let fixture = Submitting(holdingTheFirstBatch: true)
        let (recorder, commit) = (fixture.recorder, fixture.commit)
        await commit.flush()  // nothing waits: returns at once
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.record(Self.event(0)) }
            await Self.waitUntil { recorder.isHolding }
            await fixture.submit(1)
            group.addTask {
                await commit.flush()
                #expect(recorder.batches.flatMap { $0 } == [0, 1].map(Self.event))
            }
            await Self.waitUntil { commit.waitingCount == 2 }
            recorder.release()
            try await group.waitForAll()
        }
        #expect(recorder.batches == [[Self.event(0)], [Self.event(1)]])
    }

    @Test func fileLinesAreTheBytesOfJSONEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        let texts = ["", "ana", "Ana Lívia", "a\"b\\c/d\n\t\u{1}", "😀 x", "client:cli-1"]
        for round in 0..<300 {
            let date = Date(
                timeIntervalSince1970: round.isMultiple(of: 3)
                    ? Double(Int.random(in: 0...2_000_000_000, using: &generator))
                    : Double.random(in: -1e9...4e9, using: &generator))
            var details: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                details[texts.randomElement(using: &generator)! + "k"] = texts.randomElement(using: &generator)!
            }
            let event = AuditEvent(
                AuditEvent.Action(rawValue: texts.randomElement(using: &generator)!), at: date,
                userID: Bool.random(using: &generator) ? texts.randomElement(using: &generator) : nil,
                itemID: Bool.random(using: &generator) ? texts.randomElement(using: &generator) : nil,
                address: Bool.random(using: &generator) ? "192.0.2.7" : nil, details: details)
            let expected = Array(try FileAuditLog.encoder().encode(event)) + [UInt8(ascii: "\n")]
            #expect(Array(try FileAuditLog.lines([event]).readableBytesView) == expected, "\(event)")
        }
    }

    @Test func aDateJSONCannotHoldIsRefusedAsByJSONEncoder() {
        let event = AuditEvent(.open, at: Date(timeIntervalSince1970: .infinity), userID: "ana")
        #expect(throws: EncodingError.self) { try FileAuditLog.encoder().encode(event) }
        #expect(throws: EncodingError.self) { try FileAuditLog.lines([Self.event(1), event]) }
    }
}
