import ChunkedVersionStore
import Foundation
import GRDB
import NIOCore
import SQLiteStorage
import Testing
import WOPIModels
import WOPIStorage
import WOPIStorageConformance
import WOPITestSupport

/// SIGKILL of the example host (SQLite storage) after a PutFile wrote chunk files and keyed them in the database,
/// before the transaction that switches the file to the new version (Docs/sqlite-storage.md, "What a crash
/// leaves").
@Suite(.serialized) struct ChunkFileCrashTests {
    static let lock = "chunk-file-lock"

    @Test("SIGKILL between writing chunk files and the version switch: old version whole, orphan files collected")
    func sigkillBetweenChunkFilesAndSwitch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("wopi.sqlite").path
        let client = WOPIClient()
        let registry = VersionRegistry()
        var host = try HostProcess(dataDirectory: directory.url)
        try await client.use(killingOnFailure: { host }) {
            var base = try await host.waitUntilListening()
            let file = try await WOPIFile.importFiles(sizes: [1 << 20], into: directory.url, registry: registry)[0]
            let locked = try await client.lockOperation(WOPIOverride.lock, file, lock: Self.lock, at: base)
            try #require(locked.status == 200, "Lock: \(locked.status)")
            let database = try SQLiteDatabase(path: path)
            let before = try TemporaryChunkFolder.files(of: database)
            try #require(before.count == 1, "version 0 is one chunk file: \(before)")

            // A zip of stored entries of 1, 1, 1 and 4 MiB, each a chunk file; the body stops in the middle of the
            // last one and waits there, like a slow client, until the host is killed. By then the host stored the
            // batches up to about 3.75 MiB (they double up to 4 MiB): the first three chunks keyed, the fourth's file
            // begun.
            let bytes = Zip.archive(Zip.entries(sizes: [1 << 20, 1 << 20, 1 << 20, 4 << 20]))
            let (released, release) = AsyncStream<Void>.makeStream()
            defer { release.finish() }
            let put = Task { [base] in
                try await client.putFile(
                    file, lock: Self.lock, body: Self.stalling(bytes, after: 5 << 20, until: released),
                    length: bytes.count, at: base)
            }
            // Chunk files of the new version written, fsynced and keyed; the version still `writing`.
            let keyed = try await Polling.until {
                try await database.pool.read { db in
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT count(*) FROM chunks c JOIN file_versions f ON f.id = c.staged_version_id
                            WHERE f.state = 'writing' AND c.in_file = 1
                            """) ?? 0
                } >= 3
            }
            try #require(keyed, "the host keyed the chunk files of the unfinished PutFile")
            await host.stop(signal: SIGKILL)
            release.finish()
            _ = await put.result
            let orphans = try TemporaryChunkFolder.files(of: database).subtracting(before)
            #expect(orphans.count == 4, "the killed PutFile left its chunk files: \(orphans)")
            #expect(try await database.integrityCheck() == ["ok"])

            // The restarted host serves the old version, whole.
            host = try HostProcess(dataDirectory: directory.url)
            base = try await host.waitUntilListening()
            let (reply, body) = try await client.getFile(file, at: base)
            #expect(reply.status == 200)
            #expect(try registry.verify(body, isVersionOf: file.index).version == 0)
            let served = try #require(reply.header(WOPIHeader.itemVersion))
            #expect(await host.stop(signal: SIGTERM) == 0)

            // Once the write counts as abandoned, opening the storage collects its rows and files.
            let later = SQLiteStorage.Configuration(now: { Date().addingTimeInterval(11 * 60) })
            let storage = try SQLiteStorage(database: database, configuration: later)
            #expect(try TemporaryChunkFolder.files(of: database) == before, "only version 0's chunk file is left")
            let (writing, current) = try await database.pool.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM file_versions WHERE state = 'writing'"),
                    try String.fetchOne(db, sql: "SELECT state FROM file_versions WHERE id = ?", arguments: [served])
                )
            }
            #expect(writing == 0, "the killed PutFile's version is collected")
            #expect(current == "complete", "version 0 is still there")
            _ = try await storage.collectGarbage()
            #expect(try TemporaryChunkFolder.files(of: database) == before)
            #expect(try await database.integrityCheck() == ["ok"])
            try database.close()
        }
    }

    /// A body of `bytes` that sends the first `count` of them, then waits until `released` finishes and fails.
    static func stalling(_ bytes: [UInt8], after count: Int, until released: AsyncStream<Void>) -> ByteStream {
        ByteStream(knownLength: Int64(bytes.count)) {
            var offset = 0
            return {
                if offset >= count {
                    for await _ in released {}
                    throw CancellationError()
                }
                let end = min(offset + 64 * 1024, count)
                defer { offset = end }
                return ByteBuffer(bytes: bytes[offset..<end])
            }
        }
    }
}

/// The files of a database's chunk folder.
enum TemporaryChunkFolder {
    /// Every regular file in the chunk folder of `database`, as `VERSION/INDEX`.
    static func files(of database: SQLiteDatabase) throws -> Set<String> {
        let folder = database.chunkFolder
        var files: Set<String> = []
        for version in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where Int64(version) != nil
        {
            for chunk in try FileManager.default.contentsOfDirectory(atPath: "\(folder)/\(version)") {
                files.insert("\(version)/\(chunk)")
            }
        }
        return files
    }
}
