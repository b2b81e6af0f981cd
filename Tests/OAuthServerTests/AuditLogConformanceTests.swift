import Foundation
import Logging
import SQLiteServerStores
import SQLiteStorage
import Synchronization
import Testing
import WOPIServer
import WOPIServerConformance
import WOPIStorageConformance
import WOPITestSupport

@Suite("AuditLog conformance")
struct AuditLogConformanceTests {
    @Test("every audit log passes the kit", arguments: AuditLogConformance.cases, ["memory", "file", "sqlite"])
    func logs(_ kit: ConformanceCase<any AuditLog>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryAuditLog()
        try await kit.run {
            switch kind {
            case "memory": memory
            case "file": FileAuditLog(url: folder.appending("audit.jsonl"))
            default: try SQLiteAuditLog(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    /// A log that keeps the newest event first and ignores the user filter.
    actor CarelessLog: AuditLog {
        var recorded: [AuditEvent] = []
        func record(_ event: AuditEvent) { recorded.insert(event, at: 0) }
        func events(matching query: AuditQuery) -> [AuditEvent] {
            recorded.filter { $0.matches(AuditQuery(since: query.since, itemID: query.itemID)) }
        }
    }

    @Test("the kit fails a log that reverses the order and ignores the user filter")
    func catchesBrokenLog() async throws {
        var failed: [String] = []
        for kit in AuditLogConformance.cases {
            let broken = CarelessLog()
            do {
                try await kit.run { broken }
            } catch is ConformanceFailure {
                failed.append(kit.name)
            }
        }
        #expect(failed.contains { $0.hasPrefix("events read back field for field") })
        #expect(failed.contains { $0.hasPrefix("since, user and item filter") })
    }

    /// A log that queues what is submitted and never writes it.
    final class QueueThatNeverWrites: AuditLog {
        let written = InMemoryAuditLog()
        let queued = Mutex<[AuditEvent]>([])
        func record(_ event: AuditEvent) { written.record(event) }
        func submit(_ event: AuditEvent, reportingFailuresTo logger: Logger) { queued.withLock { $0.append(event) } }
        func events(matching query: AuditQuery) -> [AuditEvent] { written.events(matching: query) }
    }

    @Test("the kit fails a log that loses submitted events")
    func catchesLostSubmissions() async throws {
        let kit = try #require(AuditLogConformance.cases.first { $0.name.hasPrefix("submitted events") })
        let broken = QueueThatNeverWrites()
        await #expect(throws: ConformanceFailure.self) { try await kit.run { broken } }
        let handed = broken.queued.withLock { $0.count }
        #expect(handed > 0, "it was handed submitted events")
    }
}
