import ChunkedVersionStore
import Foundation
import NIOCore
import PostgresNIO
import PostgresStorage
import Synchronization
import Testing
import WOPIClusterTestSupport
import WOPIStorage

/// The chunked-version engine's PostgreSQL statements that the conformance kit does not reach: a reader's lease
/// renewed as it goes, and taken again under its ID (`OVERRIDING SYSTEM VALUE`) after garbage collection removed it;
/// a chunk stored once however many saves of it run at the same time, and reclaimed with the last file listing it or
/// the last version, when retention drops it.
@Suite("PostgreSQL storage: read leases and stored-once chunks")
struct PostgresVersionLeaseTests {
    @Test("a reader renews its lease, takes it again after garbage collection removed it, and releases it at the end")
    func leaseRenewedRetakenAndReleased() async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        let clock = Mutex(Date(timeIntervalSince1970: 1_000_000))
        let storage = try await PostgresStorage.open(
            database: database,
            configuration: .init(readLeaseDuration: 10, now: { clock.withLock { $0 } }))
        let root = try await storage.rootContainer(forUser: "alice")
        // 12 pieces of 256 KiB: three reads of 4 pieces (1 MiB) each.
        var content = ByteBuffer()
        for index in 0..<(3 << 20) { content.writeInteger(UInt8(truncatingIfNeeded: index * 7 + index >> 12)) }
        let file = try await storage.createFile(
            named: "big.bin", in: root.id, content: ByteStream(buffer: content), overwrite: false)
        #expect(try await count(database, "chunk_pieces") == 12)

        let opened = try await storage.readFile(file.id, range: nil)
        var pieces = opened.body.makeAsyncIterator()
        var read = ByteBuffer()
        func take(_ count: Int) async throws {
            for _ in 0..<count {
                guard var piece = try await pieces.next() else { return }
                read.writeBuffer(&piece)
            }
        }
        try await take(4)
        // Less than half of the lease is left: the next read renews it.
        clock.withLock { $0 += 6 }
        try await take(4)
        #expect(try await expiries(database) == [1_000_016])
        // The lease ran out and garbage collection took it; the version is current, so it stays.
        clock.withLock { $0 += 20 }
        let report = try await storage.collectGarbage()
        #expect(report.expiredLeases == 1 && report.retiredVersions == 0)
        #expect(try await count(database, "version_leases") == 0)
        try await take(3)
        #expect(try await expiries(database) == [1_000_036])
        try await take(1)
        #expect(try await pieces.next() == nil)
        #expect(read == content)
        // The last piece released the lease it had taken again.
        #expect(try await count(database, "version_leases") == 0)
        await database.shutdown()
    }

    private func expiries(_ database: PostgresPool) async throws -> [Double] {
        try await database.values("read the leases", Double.self, "SELECT expires_at FROM version_leases")
    }

    @Test("concurrent saves of the same content store its chunk once; the last delete reclaims it")
    func chunkStoredOnce() async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        let storage = try await PostgresStorage.open(database: database)
        let root = try await storage.rootContainer(forUser: "alice")
        var content = ByteBuffer()
        for index in 0..<600_000 { content.writeInteger(UInt8(truncatingIfNeeded: index * 13 + index >> 10)) }
        let files = try await withThrowingTaskGroup(of: FileMetadata.self) { group in
            for index in 0..<8 {
                group.addTask { [content] in
                    try await storage.createFile(
                        named: "\(index).bin", in: root.id, content: ByteStream(buffer: content), overwrite: false)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(try await count(database, "chunks") == 1)
        #expect(try await count(database, "chunk_pieces") == 3)
        for file in files.dropLast() { try await storage.delete(file.id) }
        #expect(try await count(database, "chunk_pieces") == 3)
        let last = try #require(files.last)
        #expect(
            try await storage.readFile(last.id, range: 262_000..<262_300).body.collect(upTo: 1_000)
                == content.getSlice(at: 262_000, length: 300))
        try await storage.delete(last.id)
        _ = try await storage.collectGarbage()
        #expect(try await count(database, "chunks") == 0)
        #expect(try await count(database, "chunk_pieces") == 0)
        await database.shutdown()
    }

    @Test("with keep-last-10 the 11th save drops the oldest version, and garbage collection reclaims its pieces")
    func theEleventhSaveReclaimsTheOldestVersionsChunks() async throws {
        let server = try await PostgresServer.shared.value
        let database = try await PostgresPool.open(try await server.makeDatabase(), logger: PostgresServer.logger)
        let storage = try await PostgresStorage.open(
            database: database, configuration: .init(versionRetention: VersionRetention(keepLast: 10)))
        let root = try await storage.rootContainer(forUser: "alice")
        /// 600 kB of a seed of their own: no chunk shared with another seed's.
        func content(_ seed: Int) -> ByteStream {
            var buffer = ByteBuffer()
            for index in 0..<600_000 {
                buffer.writeInteger(UInt8(truncatingIfNeeded: index % 251 + index >> 10 + seed * 97))
            }
            return ByteStream(buffer: buffer)
        }
        var saved = try await storage.createFile(named: "k.bin", in: root.id, content: content(0), overwrite: false)
        let oldest = saved
        let oldestChunks = try await count(database, "chunks")
        let oldestPieces = try await count(database, "chunk_pieces")
        for seed in 1...10 {
            saved = try await storage.writeFile(saved.id, content: content(seed), expectedVersion: saved.version)
        }
        let chunksBefore = try await count(database, "chunks")
        let piecesBefore = try await count(database, "chunk_pieces")
        _ = try await storage.collectGarbage()
        let versions = try await storage.versions(of: oldest.id)
        #expect(versions.count == 10)
        #expect(!versions.contains { $0.id == oldest.version }, "the oldest version went")
        #expect(try await count(database, "chunks") == chunksBefore - oldestChunks)
        #expect(try await count(database, "chunk_pieces") == piecesBefore - oldestPieces)
        await database.shutdown()
    }

    private func count(_ database: PostgresPool, _ table: String) async throws -> Int64 {
        try await database.values(
            "count the rows of \(table)", Int64.self, .init(unsafeSQL: "SELECT count(*) FROM \(table)")
        ).first ?? -1
    }
}
