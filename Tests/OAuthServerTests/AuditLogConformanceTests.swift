import Foundation
import SQLiteServerStores
import SQLiteStorage
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
}
