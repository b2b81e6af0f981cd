import Foundation
import GRDB
import SQLiteStorage
import Testing
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("SQLite storage: chunk files beside the database")
struct SQLiteChunkFileTests {
    @Test("a chunk stored as pieces before chunk files reads back, and a save of the same content reuses it")
    func piecesFromBeforeChunkFiles() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let size = 1_000_000
        let first = try await storage.createFile(
            named: "a.bin", in: root.id, content: TestContent.stream(seed: 6, size: size), overwrite: false)
        // What storage.v2 left: the chunk as pieces of 256 KiB in the database, and no file.
        let path = "\(storage.database.chunkFolder)/\(first.version)/0"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count == size)
        let version = try #require(Int64(first.version))
        try await storage.database.pool.write { db in
            for (index, start) in stride(from: 0, to: bytes.count, by: 256 * 1024).enumerated() {
                try db.execute(
                    sql: "INSERT INTO chunk_pieces (version_id, chunk_index, piece_index, data) VALUES (?, 0, ?, ?)",
                    arguments: [version, index, bytes[start..<min(start + 256 * 1024, bytes.count)]])
            }
            try db.execute(sql: "UPDATE chunks SET in_file = 0")
        }
        try FileManager.default.removeItem(atPath: path)
        #expect(try await TestContent.collect(storage.readFile(first.id).body) == TestContent.bytes(seed: 6, 0..<size))

        let second = try await storage.createFile(
            named: "b.bin", in: root.id, content: TestContent.stream(seed: 6, size: size), overwrite: false)
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database).isEmpty, "the copy in pieces is reused")
        let range = try await storage.readFile(second.id, range: 200_000..<600_000)
        #expect(try await TestContent.collect(range.body) == TestContent.bytes(seed: 6, 200_000..<600_000))
    }

    @Test("while a backup holds the folder's lock no chunk file is removed; garbage collection removes them after")
    func backupLockKeepsFiles() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let size = 600_000
        let old = try await storage.createFile(
            named: "a.bin", in: root.id, content: TestContent.stream(seed: 7, size: size), overwrite: false)
        let lock = open("\(storage.database.chunkFolder)/.backup-lock", O_RDWR | O_CREAT, 0o600)
        try #require(lock >= 0 && flock(lock, LOCK_SH) == 0)

        let new = try await storage.writeFile(
            old.id, content: TestContent.stream(seed: 8, size: size), expectedVersion: nil)
        _ = try await storage.collectGarbage()
        // The old chunk is gone from the database, and its file stays for the backup's copy.
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunks") == 1)
        #expect(
            try TemporaryDatabaseFile.chunkFiles(storage.database)
                == ["\(old.version)/0": size, "\(new.version)/0": size])

        flock(lock, LOCK_UN)
        close(lock)
        _ = try await storage.collectGarbage()
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database) == ["\(new.version)/0": size])
        #expect(try await TestContent.collect(storage.readFile(old.id).body) == TestContent.bytes(seed: 8, 0..<size))
    }

    @Test(
        "a replaced chunk file leaves its folder at the commit; its unlink waits in the trash, emptied at the latest by GC"
    )
    func replacedFilesGoThroughTheTrash() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let size = 600_000
        let old = try await storage.createFile(
            named: "a.bin", in: root.id, content: TestContent.stream(seed: 9, size: size), overwrite: false)
        let new = try await storage.writeFile(
            old.id, content: TestContent.stream(seed: 10, size: size), expectedVersion: nil)
        _ = try await storage.collectGarbage()
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database) == ["\(new.version)/0": size])

        // What a crash between the rename and the unlink leaves: a file in the trash. Opening empties it.
        let trash = "\(storage.database.chunkFolder)/.trash"
        #expect(try FileManager.default.contentsOfDirectory(atPath: trash).isEmpty)
        try Data(count: 1000).write(to: URL(fileURLWithPath: "\(trash)/\(old.version)-0"))
        try storage.database.close()
        let reopened = try file.openStorage()
        #expect(try FileManager.default.contentsOfDirectory(atPath: trash).isEmpty)
        #expect(try await TestContent.collect(reopened.readFile(old.id).body) == TestContent.bytes(seed: 10, 0..<size))
    }
}
