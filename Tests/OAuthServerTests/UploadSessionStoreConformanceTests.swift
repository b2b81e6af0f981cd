import Foundation
import NIOCore
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIServer
import WOPIServerConformance
import WOPIStorage
import WOPIStorageConformance
import WOPITestSupport

@Suite("UploadSessionStore conformance")
struct UploadSessionStoreConformanceTests {
    @Test("every store passes the kit", arguments: UploadSessionStoreConformance.cases, ["memory", "sqlite"])
    func conformance(_ kit: ConformanceCase<any UploadSessionStore>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryUploadSessionStore(directory: folder.url)
        try await kit.run {
            switch kind {
            case "memory": memory
            default: try SQLiteUploadSessionStore(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    @Test("the kit fails a store that counts every piece, stale or cut short")
    func catchesAStoreThatCountsEverything() async throws {
        let refused = try #require(UploadSessionStoreConformance.cases.dropFirst().first)
        await #expect(throws: ConformanceFailure.self) { try await refused.run { CountsEverything() } }
    }
}

/// A store whose appends always succeed, whatever the session's length: what the kit must catch.
private actor CountsEverything: UploadSessionStore {
    private var sessions: [String: UploadSession] = [:]
    private var pieces: [String: [Int64: ByteBuffer]] = [:]
    func create(_ session: UploadSession) { sessions[session.token] = session }
    func session(_ token: String) -> UploadSession? { sessions[token] }
    func storePiece(_ bytes: ByteBuffer, of token: String, attempt: String, at offset: Int64) {
        pieces[token, default: [:]][offset] = bytes
    }
    func commitAttempt(
        _ attempt: String, of token: String, from length: Int64, to newLength: Int64, expiresAt: Date, now: Date
    ) -> Bool {
        sessions[token]?.length = newLength
        return true
    }
    func piece(of token: String, at offset: Int64) -> ByteBuffer? { pieces[token]?[offset] }
    func removeSession(_ token: String) { sessions[token] = nil }
    func removeExpired(now: Date) -> Int { 0 }
}
