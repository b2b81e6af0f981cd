import Foundation
import GRDB
import SQLiteStorage
import Testing
import WOPIStorage
import WOPIStorageConformance

@Suite("SQLite storage: content-defined chunks stored once")
struct SQLiteChunkLayoutTests {
    @Test("the same content in two files, and written again, is stored once")
    func sameContentStoredOnce() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let size = 1_000_000
        let first = try await storage.createFile(
            named: "a.bin", in: root.id, content: TestContent.stream(seed: 4, size: size), overwrite: false)
        let second = try await storage.createFile(
            named: "b.bin", in: root.id, content: TestContent.stream(seed: 4, size: size), overwrite: false)
        _ = try await storage.writeFile(
            first.id, content: TestContent.stream(seed: 4, size: size), expectedVersion: nil)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunks") == 1)
        // A chunk of at least one piece is one file beside the database, written by the first save only.
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunk_pieces") == 0)
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database) == ["\(first.version)/0": size])
        #expect(try await storage.contentChunks(of: first.id).chunks == storage.contentChunks(of: second.id).chunks)

        // Once no version lists it, the chunk goes with the version that held it last.
        try await storage.delete(first.id)
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database) == ["\(first.version)/0": size])
        try await storage.delete(second.id)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunks") == 0)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunk_pieces") == 0)
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database).isEmpty)
    }

    @Test("a changed zip entry stores only that entry's chunk; the old one goes with the old version")
    func changedEntryStoresOneChunk() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        var entries = Zip.entries(sizes: [3_000, 400_000, 20_000])
        let created = try await storage.createFile(
            named: "a.docx", in: root.id, content: Zip.body(Zip.archive(entries)), overwrite: false)
        let reader = try await storage.readFile(created.id)  // holds the old version
        entries[2].data[0] &+= 1
        let written = try await storage.writeFile(
            created.id, content: Zip.body(Zip.archive(entries)), expectedVersion: nil)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunks") == 8)
        #expect(
            try await TemporaryDatabaseFile.count(
                storage.database, "chunks", where: "staged_version_id = \(written.version)") == 1)
        #expect(try await TestContent.collect(reader.body).count == Int(created.size))

        _ = try await storage.collectGarbage()
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunks") == 7)
        #expect(try await TemporaryDatabaseFile.strayChunks(storage.database) == 0)
        let read = try await storage.readFile(created.id)
        #expect(try await TestContent.collect(read.body) == Zip.archive(entries))
    }

    @Test("a version written before the chunk layout reads back and lists its chunks")
    func oldLayoutStaysReadable() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let doc = try await storage.createFile(named: "old.bin", in: root.id, content: .empty, overwrite: false)
        let bytes = TestContent.bytes(seed: 6, 0..<2_500)
        // What a database of the first schema holds: fixed-size chunk rows of 1,000 bytes.
        let version = try await storage.database.pool.write { db -> Int64 in
            try db.execute(
                sql: """
                    INSERT INTO file_versions (file_id, state, chunk_size, size, created_at, committed_at)
                    VALUES (?, 'complete', 1000, 2500, 0, 0)
                    """, arguments: [doc.id.rawValue])
            let version = db.lastInsertedRowID
            for index in 0..<3 {
                try db.execute(
                    sql: "INSERT INTO content_chunks (version_id, chunk_index, data) VALUES (?, ?, ?)",
                    arguments: [version, index, Data(bytes[(index * 1_000)..<min(index * 1_000 + 1_000, 2_500)])])
            }
            try db.execute(
                sql: "UPDATE items SET current_version_id = ? WHERE id = ?", arguments: [version, doc.id.rawValue])
            return version
        }
        let read = try await storage.readFile(doc.id, range: 900..<2_100)
        #expect(try await TestContent.collect(read.body) == Array(bytes[900..<2_100]))
        let list = try await storage.contentChunks(of: doc.id)
        #expect(list.version == "\(version)" && !list.isZip && list.chunks.map(\.length) == [2_500])
    }
}
