import ChunkedVersionStore
import Foundation
import GRDB
import NIOCore
import S3ObjectStore
import SQLiteStorage
import Synchronization
import Testing
import WOPIDeployment
import WOPIStorage

/// Where the bytes go, and what garbage collection leaves, with the content in a Ceph bucket.
@Suite("Chunk bodies in a bucket")
struct ChunkBodyLayoutTests {
    /// A body that is not a zip is one chunk: one PUT up to a part, a multipart upload beyond (3 parts of 8 MiB
    /// for 20 MiB); the database keeps only its key, and every range reads back.
    @Test(arguments: [3 << 20, 20 << 20 + 12345])
    func largeChunkIsOneObject(size: Int) async throws {
        try await ObjectStoreBackends.withBucket("layout") { store in
            let file = try SQLiteFile()
            let storage = try file.openStorage(store)
            let bytes = Self.bytes(size, seed: 7)
            let root = try await storage.rootContainer(forUser: "ada")
            let stored = try await storage.createFile(
                named: "big.bin", in: root.id, content: ByteStream(buffer: ByteBuffer(bytes: bytes)), overwrite: false)
            #expect(try await ObjectStoreBackends.objects(store) == ["chunks/\(stored.version)/0": Int64(size)])
            let pieceBytes = try await storage.database.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(data)), 0) FROM chunk_pieces") ?? -1
            }
            #expect(pieceBytes == 0, "the database holds none of the content")
            #expect(try await storage.readFile(stored.id, range: nil).body.bytes() == bytes)
            let range = Int64(size / 3)..<Int64(size - 10)
            let part = try await storage.readFile(stored.id, range: range).body.bytes()
            #expect(part == Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)]))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: file.directory.path).count == 3,
                "no chunk folder beside the database (wopi.sqlite, -wal, -shm)")
        }
    }

    /// Deleting and replacing files, then collecting garbage, leaves exactly the objects the `chunks` rows of
    /// kept versions name (counted with ListObjectsV2); an object no row names goes only after the grace period,
    /// and never one of a version being written.
    @Test func garbageCollectionLeavesTheListedObjects() async throws {
        try await ObjectStoreBackends.withBucket("gc") { store in
            let file = try SQLiteFile()
            let clock = TestClock()
            let storage = try file.openStorage(
                store, .init(versionRetention: .currentOnly, now: clock.now), gracePeriod: 600)
            let root = try await storage.rootContainer(forUser: "ada")
            var ids: [ItemID] = []
            for index in 0..<6 {
                let created = try await storage.createFile(
                    named: "f\(index).bin", in: root.id,
                    content: ByteStream(buffer: ByteBuffer(bytes: Self.bytes(600_000, seed: index))),
                    overwrite: false)
                ids.append(created.id)
            }
            for (index, id) in ids.prefix(3).enumerated() {
                let content = ByteStream(buffer: ByteBuffer(bytes: Self.bytes(700_000, seed: 100 + index)))
                _ = try await storage.writeFile(id, content: content, expectedVersion: nil)
            }
            try await storage.delete(ids[5])
            // Planted: a body of a version that does not exist, and one of a version being written.
            try await store.putObject("chunks/999999/0", body: ByteBuffer(bytes: [1, 2, 3]))
            let writing = try await storage.database.pool.write { db -> Int64 in
                try db.execute(
                    sql: """
                        INSERT INTO file_versions (file_id, state, layout, chunk_size, write_expires_at, created_at)
                        VALUES (NULL, 'writing', 'chunks', 262144, ?, ?)
                        """, arguments: [clock.now().timeIntervalSince1970 + 1e9, clock.now().timeIntervalSince1970])
                return db.lastInsertedRowID
            }
            try await store.putObject("chunks/\(writing)/0", body: ByteBuffer(bytes: [4]))

            _ = try await storage.collectGarbage()
            let listed = try await storage.database.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT staged_version_id, staged_index FROM chunks WHERE in_file = 1")
                    .map { row -> String in "chunks/\(row[0] as Int64)/\(row[1] as Int64)" }
            }
            #expect(listed.count == 5, "one chunk per kept file: three replaced, two untouched")
            // The bodies of replaced and deleted versions went when their rows did; the planted ones are younger
            // than the grace period.
            #expect(
                Set(try await ObjectStoreBackends.objects(store).keys)
                    == Set(listed + ["chunks/\(writing)/0", "chunks/999999/0"]))
            clock.advance(by: 3600)
            _ = try await storage.collectGarbage()
            #expect(Set(try await ObjectStoreBackends.objects(store).keys) == Set(listed + ["chunks/\(writing)/0"]))
            for (index, id) in ids.prefix(5).enumerated() {
                let expected = index < 3 ? Self.bytes(700_000, seed: 100 + index) : Self.bytes(600_000, seed: index)
                #expect(try await storage.readFile(id, range: nil).body.bytes() == expected)
            }
        }
    }

    /// `/readyz`'s bucket check passes on a bucket that exists and fails, naming it, on one that does not.
    @Test func bucketReadiness() async throws {
        try await ObjectStoreBackends.withBucket("ready") { store in
            try await ReadinessCheck.bucket(store).check()
            var missing = store.configuration
            missing.bucket += "-missing"
            try await S3ObjectStore.withObjectStore(configuration: missing) { other in
                let error = await #expect(throws: (any Error).self) { try await ReadinessCheck.bucket(other).check() }
                #expect(error.map { "\($0)" }?.contains(missing.bucket) == true)
            }
        }
    }

    /// Deterministic bytes that are not a zip.
    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }
}

/// A clock the test moves.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    let start = Date()
    var now: @Sendable () -> Date { { [self] in start.addingTimeInterval(offset.withLock { $0 }) } }
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

extension ByteStream {
    /// Every byte of the stream.
    func bytes() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await piece in self { bytes += piece.readableBytesView }
        return bytes
    }
}
