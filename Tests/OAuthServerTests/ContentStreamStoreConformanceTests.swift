import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIServer
import WOPIServerConformance
import WOPIStorage
import WOPIStorageConformance
import WOPITestSupport

@Suite("ContentStreamStore conformance")
struct ContentStreamStoreConformanceTests {
    @Test("every store passes the kit", arguments: ContentStreamStoreConformance.cases, ["memory", "sqlite"])
    func conformance(_ kit: ConformanceCase<any ContentStreamStore>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryContentStreamStore()
        try await kit.run {
            switch kind {
            case "memory": memory
            default: try SQLiteContentStreamStore(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    @Test("the kit fails a store whose swaps ignore the sequence number")
    func catchesABlindStore() async throws {
        let roundTrip = try #require(ContentStreamStoreConformance.cases.first)
        await #expect(throws: ConformanceFailure.self) { try await roundTrip.run { BlindStore() } }
    }
}

/// A store that replaces records whatever the sequence number: what the kit must catch.
private actor BlindStore: ContentStreamStore {
    private var records: [ItemID: ContentStreamRecord] = [:]
    func record(of file: ItemID) -> ContentStreamRecord? { records[file] }
    func compareAndSwap(file: ItemID, expectedSequenceNumber: Int64?, new: ContentStreamRecord) -> Bool {
        records[file] = new
        return true
    }
    func removeRecord(of file: ItemID) { records[file] = nil }
}
