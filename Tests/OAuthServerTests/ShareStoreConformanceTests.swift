import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIServer
import WOPIServerConformance
import WOPIStorage
import WOPIStorageConformance
import WOPITestSupport

@Suite("ShareStore and ActivityLog conformance")
struct ShareStoreConformanceTests {
    @Test("every share store passes the kit", arguments: ShareStoreConformance.cases, ["memory", "file", "sqlite"])
    func shares(_ kit: ConformanceCase<any ShareStore>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryShareStore()
        try await kit.run {
            switch kind {
            case "memory": memory
            case "file": FileShareStore(url: folder.appending("shares.json"))
            default: try SQLiteShareStore(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    @Test(
        "every activity log passes the kit", arguments: ShareStoreConformance.activityCases,
        ["memory", "file", "sqlite"])
    func activities(_ kit: ConformanceCase<any ActivityLog>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryActivityLog()
        try await kit.run {
            switch kind {
            case "memory": memory
            case "file": FileActivityLog(url: folder.appending("activities.json"))
            default: try SQLiteActivityLog(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    /// A store that appends instead of replacing, and forgets nothing.
    actor CarelessStore: ShareStore {
        var shares: [Share] = []
        func grant(_ share: Share) { shares.append(share) }
        func revoke(itemID: ItemID, granteeID: String) -> Bool { true }
        func shares(withGrantee userID: String) -> [Share] { shares.filter { $0.granteeID == userID } }
        func shares(grantedBy userID: String) -> [Share] { shares.filter { $0.grantedBy == userID } }
    }

    @Test("the kit fails a store that keeps both grants and never revokes")
    func catchesBrokenStore() async throws {
        var failed: [String] = []
        for kit in ShareStoreConformance.cases {
            let broken = CarelessStore()
            do {
                try await kit.run { broken }
            } catch is ConformanceFailure {
                failed.append(kit.name)
            }
        }
        #expect(failed.contains { $0.hasPrefix("granting the same item to the same grantee again") })
        #expect(failed.contains { $0.hasPrefix("revoke removes one grant") })
        #expect(!failed.contains { $0.hasPrefix("a grant reads back") })
    }
}
