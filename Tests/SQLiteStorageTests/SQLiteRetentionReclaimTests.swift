import ChunkedVersionStore
import Foundation
import GRDB
import SQLiteStorage
import Testing
import WOPIStorage

/// Issue 46's retention figure on a real SQLite file: with keep-last-10 the 11th save drops the oldest version, and
/// garbage collection reclaims what only that version listed: its `chunks` rows and its chunk files.
@Suite struct SQLiteRetentionReclaimTests {
    @Test func theEleventhSaveDropsTheOldestVersionAndItsUniqueChunksGo() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(.init(versionRetention: VersionRetention(keepLast: 10)))
        let database = try file.openDatabase()
        let root = try await storage.rootContainer(forUser: "alice")
        // 600 kB of a seed of their own each: two chunk files and no chunk shared with another version.
        var saved = try await storage.createFile(
            named: "k.bin", in: root.id, content: TestContent.stream(seed: 0, size: 600_000), overwrite: false)
        let oldest = saved
        let oldestChunks = try await database.pool.read { db in
            try Data.fetchAll(db, sql: "SELECT chunk_id FROM chunks")
        }
        let oldestFiles = Set(try TemporaryDatabaseFile.chunkFiles(database).keys)
        #expect(!oldestChunks.isEmpty && !oldestFiles.isEmpty)
        for seed in 1...10 {
            saved = try await storage.writeFile(
                saved.id, content: TestContent.stream(seed: seed, size: 600_000), expectedVersion: saved.version)
        }
        let chunksBefore = try await TemporaryDatabaseFile.count(database, "chunks")
        try await storage.collectGarbage()
        let versions = try await storage.versions(of: oldest.id)
        #expect(versions.count == 10)
        #expect(!versions.contains { $0.id == oldest.version }, "the oldest version went")
        let marks = Array(repeating: "?", count: oldestChunks.count).joined(separator: ", ")
        let left = try await database.pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM chunks WHERE chunk_id IN (\(marks))",
                arguments: StatementArguments(oldestChunks))
        }
        #expect(left == 0, "the oldest version's chunks are reclaimed")
        #expect(try await TemporaryDatabaseFile.count(database, "chunks") == chunksBefore - oldestChunks.count)
        #expect(
            oldestFiles.isDisjoint(with: try TemporaryDatabaseFile.chunkFiles(database).keys), "and its chunk files")
    }
}
