import ChunkedVersionStore
import Foundation
import GRDB
import NIOCore
import SQLiteStorage
import Synchronization
import Testing
import WOPIStorage
import WOPITestSupport

@Suite("SQLite storage: crash safety and readers")
struct SQLiteStorageCrashSafetyTests {
    private let small = SQLiteStorage.Configuration(
        chunkSize: 4_096, chunksPerTransaction: 2, versionRetention: .currentOnly)

    @Test("an interrupted write leaves the old version whole and no stray chunks, also after reopening")
    func interruptedWrite() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(small)
        let root = try await storage.rootContainer(forUser: "alice")
        let original = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 50_000), overwrite: false)

        // The body fails after several write transactions have stored chunks of the new version.
        try await expectInjectedFailure {
            _ = try await storage.writeFile(
                original.id, content: TestContent.stream(seed: 2, size: 80_000, pieceSize: 5_000, failAfter: 40_000),
                expectedVersion: nil)
        }
        try await expectInjectedFailure {
            _ = try await storage.createFile(
                named: "new.bin", in: root.id, content: TestContent.stream(seed: 2, size: 80_000, failAfter: 30_000),
                overwrite: false)
        }
        #expect(try await storage.file(original.id) == original)
        #expect(try await storage.children(of: root.id).count == 1)
        #expect(try await TemporaryDatabaseFile.strayChunks(storage.database) == 0)

        let reopened = try file.openStorage(small)
        let read = try await reopened.readFile(original.id)
        #expect(read.metadata == original)
        #expect(try await TestContent.collect(read.body) == TestContent.bytes(seed: 1, 0..<50_000))
        #expect(try await TemporaryDatabaseFile.strayChunks(reopened.database) == 0)
        #expect(try await reopened.database.integrityCheck() == ["ok"])
    }

    @Test("chunk batches commit with synchronous = NORMAL, the switch to the new version at the database's level")
    func batchesRelaxSynchronousOnlyForThemselves() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(small)
        let root = try await storage.rootContainer(forUser: "alice")
        let log = StatementLog()
        try await storage.database.pool.writeWithoutTransaction { db in
            db.trace { event in
                if case .statement(let statement) = event { log.append(statement.sql) }
            }
        }
        let stored = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 50_000), overwrite: false)
        try await expectInjectedFailure {
            _ = try await storage.writeFile(
                stored.id, content: TestContent.stream(seed: 2, size: 80_000, pieceSize: 5_000, failAfter: 40_000),
                expectedVersion: nil)
        }

        // Replay the log: the level in force at each chunk batch (which renews the write) and at each switch to a
        // finished version.
        var level = "FULL"
        var chunkLevels: Set<String> = []
        var switchLevels: [String] = []
        for sql in log.statements {
            if sql.hasPrefix("PRAGMA synchronous = ") {
                level = sql.dropFirst("PRAGMA synchronous = ".count) == "NORMAL" ? "NORMAL" : "FULL"
            } else if sql.hasPrefix("UPDATE file_versions SET write_expires_at") {
                chunkLevels.insert(level)
            } else if sql.contains("SET state = 'complete'") {
                switchLevels.append(level)
            }
        }
        #expect(chunkLevels == ["NORMAL"])
        #expect(switchLevels == ["FULL"])
        // After the write and after the failed one, the writer connection is back at FULL.
        #expect(level == "FULL")
        let now = try await storage.database.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(now == 2)
        #expect(
            try await TestContent.collect(storage.readFile(stored.id).body) == TestContent.bytes(seed: 1, 0..<50_000))
    }

    @Test("a write cancelled mid-body leaves the old version and cleans its chunks at once")
    func cancelledWrite() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(small)
        let root = try await storage.rootContainer(forUser: "alice")
        let original = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 9_000), overwrite: false)
        // A body that sends 40 000 bytes, then hangs like a stalled client until its task is cancelled.
        let stalling = ByteStream {
            var sent = 0
            return {
                if sent >= 40_000 { try await Task.sleep(for: .seconds(60)) }
                sent += 5_000
                return ByteBuffer(repeating: 7, count: 5_000)
            }
        }
        let write = Task { try await storage.writeFile(original.id, content: stalling, expectedVersion: nil) }
        try await eventually { try await TemporaryDatabaseFile.strayChunks(storage.database) > 0 }
        write.cancel()
        await #expect(throws: StorageError.self) { _ = try await write.value }
        #expect(try await TemporaryDatabaseFile.strayChunks(storage.database) == 0)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 1)
        #expect(try await storage.file(original.id) == original)
    }

    @Test("a read that is dropped unread releases its lease")
    func droppedRead() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(small)
        let root = try await storage.rootContainer(forUser: "alice")
        let doc = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 9_000), overwrite: false)
        do {
            let read = try await storage.readFile(doc.id)
            #expect(read.body.knownLength == 9_000)
        }
        try await eventually { try await TemporaryDatabaseFile.count(storage.database, "version_leases") == 0 }
    }

    @Test("chunks of a write whose process died are collected once the write is abandoned")
    func crashedWrite() async throws {
        let file = try TemporaryDatabaseFile()
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        var configuration = small
        configuration.now = clock.dateSource
        let storage = try file.openStorage(configuration)
        let root = try await storage.rootContainer(forUser: "alice")
        let doc = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 10_000), overwrite: false)

        // What a host killed in the middle of an upload leaves behind: a 'writing' version with the pieces of a
        // chunk it keyed and listed (chunk 0) and of one it had not finished (chunk 1), and the file of a chunk it
        // had not finished (chunk 2).
        let expiry = clock.date.timeIntervalSince1970 + configuration.abandonedWriteTimeout
        let version = try await storage.database.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO file_versions (state, layout, chunk_size, created_at, write_expires_at)
                    VALUES ('writing', 'chunks', 4096, ?, ?)
                    """, arguments: [expiry - 600, expiry])
            let version = db.lastInsertedRowID
            for (chunk, piece) in [(0, 0), (0, 1), (1, 0)] {
                try db.execute(
                    sql: """
                        INSERT INTO chunk_pieces (version_id, chunk_index, piece_index, data)
                        VALUES (?, ?, ?, zeroblob(4096))
                        """,
                    arguments: [version, chunk, piece])
            }
            let id = Data(repeating: 7, count: 16)
            try db.execute(
                sql: """
                    INSERT INTO chunks (chunk_id, staged_version_id, staged_index, length, piece_size)
                    VALUES (?, ?, 0, 8192, 4096)
                    """, arguments: [id, version])
            try db.execute(
                sql: """
                    INSERT INTO version_chunks (version_id, chunk_index, chunk_id, start_offset, length)
                    VALUES (?, 0, ?, 0, 8192)
                    """, arguments: [version, id])
            return version
        }
        let folder = "\(storage.database.chunkFolder)/\(version)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(repeating: 3, count: 9_000).write(to: URL(fileURLWithPath: "\(folder)/2"))
        // Another process opening the file meanwhile must not take the chunks of a write that may still run.
        _ = try file.openStorage(configuration)
        #expect(try await TemporaryDatabaseFile.strayChunks(storage.database) == 4)

        clock.advance(by: configuration.abandonedWriteTimeout + 1)
        let reopened = try file.openStorage(configuration)
        #expect(try await TemporaryDatabaseFile.strayChunks(reopened.database) == 0)
        #expect(try await TemporaryDatabaseFile.count(reopened.database, "file_versions") == 1)
        #expect(try await TemporaryDatabaseFile.count(reopened.database, "chunks") == 1)
        #expect(!FileManager.default.fileExists(atPath: folder), "the abandoned write's folder is gone")
        #expect(try await TestContent.collect(reopened.readFile(doc.id).body) == TestContent.bytes(seed: 1, 0..<10_000))
    }

    @Test("a reader keeps reading its version while the file is replaced and deleted")
    func readerKeepsVersion() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(small)
        let root = try await storage.rootContainer(forUser: "alice")
        let doc = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 20_000), overwrite: false)

        let read = try await storage.readFile(doc.id)
        var iterator = read.body.makeAsyncIterator()
        var bytes = try #require(try await iterator.next()).readableBytesView.map { $0 }
        // Replace the file from a second pool (another process), then delete it.
        let other = try file.openStorage(small)
        _ = try await other.writeFile(doc.id, content: TestContent.stream(seed: 9, size: 30_000), expectedVersion: nil)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 2)
        try await other.delete(doc.id)
        while let piece = try await iterator.next() { bytes += piece.readableBytesView }
        #expect(bytes == TestContent.bytes(seed: 1, 0..<20_000))
        // The last reader's release deleted the old version.
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 0)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "version_leases") == 0)
    }

    @Test("an abandoned reader's lease runs out and its version is collected")
    func abandonedReader() async throws {
        let file = try TemporaryDatabaseFile()
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        var configuration = small
        configuration.now = clock.dateSource
        let storage = try file.openStorage(configuration)
        let root = try await storage.rootContainer(forUser: "alice")
        // Larger than what opening the content fetches (its first statement's worth, and the next one ahead): the
        // rest of the body is read after the collection.
        let size = 3 * Int(ChunkedStorageConfiguration.bytesPerStatement)
        let doc = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: size), overwrite: false)
        let read = try await storage.readFile(doc.id)
        _ = try await storage.writeFile(doc.id, content: TestContent.stream(seed: 2, size: 100), expectedVersion: nil)
        #expect(try await storage.collectGarbage().retiredVersions == 0)

        clock.advance(by: configuration.readLeaseDuration + 1)
        let report = try await storage.collectGarbage()
        #expect(report.expiredLeases == 1 && report.retiredVersions == 1)
        await #expect(throws: StorageError.self) { _ = try await TestContent.collect(read.body) }
        #expect(try await TemporaryDatabaseFile.strayChunks(storage.database) == 0)
    }
}

/// Expects `body` to fail with an I/O storage error caused by the test stream's injected failure.
private func expectInjectedFailure(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async throws {
    do {
        try await body()
        Issue.record("expected the write to fail", sourceLocation: sourceLocation)
    } catch let error as StorageError {
        #expect(error.code == .io && error.underlying is TestContent.InjectedFailure, sourceLocation: sourceLocation)
    }
}

/// Waits until `condition` holds, failing the test after about three seconds.
private func eventually(
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    guard try await !Polling.until(every: .milliseconds(10), condition) else { return }
    Issue.record("the condition did not become true in time", sourceLocation: sourceLocation)
}

/// The SQL a connection ran, in order (from GRDB's trace hook).
private final class StatementLog: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ sql: String) { lines.withLock { $0.append(sql) } }

    var statements: [String] { lines.withLock { $0 } }
}
