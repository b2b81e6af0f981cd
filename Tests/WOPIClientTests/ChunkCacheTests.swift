import Foundation
import Testing
import WOPIChunking
import WOPIClient

@Suite struct ChunkCacheTests {
    /// A fresh cache directory under the temporary folder.
    static func makeCache(capacity: Int64 = ChunkCache.defaultCapacity) throws -> ChunkCache {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chunk-cache-\(UUID())")
        return try ChunkCache(directory: directory, capacity: capacity)
    }

    /// Stores `bytes` through a writer and returns their ID.
    @discardableResult
    static func put(_ bytes: [UInt8], in cache: ChunkCache) throws -> ChunkID {
        let id = SpookyHash.hash(bytes)
        let writer = try cache.writer()
        try bytes.withUnsafeBytes { raw throws in try writer.write(raw) }
        try writer.commit(as: id)
        return id
    }

    static func contents(_ file: ChunkFile) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try file.read(offset: 0, length: file.length()) { bytes += $0 }
        return bytes
    }

    @Test func storesAndReturnsAChunkByItsID() throws {
        let cache = try Self.makeCache()
        let bytes = Array("the central directory".utf8)
        let id = try Self.put(bytes, in: cache)
        #expect(cache.contains(id))
        let file = try #require(cache.open(id))
        defer { file.close() }
        #expect(try Self.contents(file) == bytes)
        #expect(cache.size() == Int64(bytes.count))
    }

    @Test func isPrivateToTheUser() throws {
        let cache = try Self.makeCache()
        let id = try Self.put([1, 2, 3], in: cache)
        var info = stat()
        #expect(stat(cache.directory.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(stat(try #require(Self.path(of: id, in: cache)), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func refusesBytesThatDoNotHashToTheGivenID() throws {
        let cache = try Self.makeCache()
        let wrong = SpookyHash.hash(Array("other".utf8))
        let writer = try cache.writer()
        try Array("bytes".utf8).withUnsafeBytes { raw throws in try writer.write(raw) }
        #expect(throws: ChunkCacheError.self) { try writer.commit(as: wrong) }
        #expect(!cache.contains(wrong))
    }

    @Test func aCorruptEntryIsDiscardedAndReportedAbsent() throws {
        let cache = try Self.makeCache()
        let id = try Self.put(Array(repeating: 7, count: 4096), in: cache)
        // Flip one byte of the stored chunk, as a disk error would.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: try #require(Self.path(of: id, in: cache))))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: [8])
        try handle.close()
        #expect(cache.contains(id))
        #expect(cache.open(id) == nil)
        #expect(!cache.contains(id), "the corrupt copy is removed so the next transfer fetches the chunk again")
        try Self.put(Array(repeating: 7, count: 4096), in: cache)
        #expect(cache.open(id) != nil)
    }

    @Test func evictsTheChunksUsedLongestAgoBeyondItsBound() throws {
        let cache = try Self.makeCache(capacity: 10_000)
        var ids: [ChunkID] = []
        for index in 0..<3 {
            ids.append(try Self.put(Array(repeating: UInt8(index), count: 3000), in: cache))
            // Distinct use times without sleeping: set each chunk's time explicitly.
            let path = try #require(Self.path(of: ids[index], in: cache))
            var times = [timespec(tv_sec: 1_000 + index, tv_nsec: 0), timespec(tv_sec: 1_000 + index, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        // Using the oldest makes it the newest; the next store passes the bound and evicts the second.
        cache.open(ids[0])?.close()
        try Self.put(Array(repeating: 9, count: 3000), in: cache)
        #expect(cache.size() <= 9_000)
        #expect(cache.contains(ids[0]))
        #expect(!cache.contains(ids[1]))
    }

    @Test func storesARangeOfALocalFile() throws {
        let cache = try Self.makeCache()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID())").path
        let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try #require(ChunkFile(readingAt: path))
        defer { source.close() }
        let part = Array(bytes[100..<500_100])
        let id = SpookyHash.hash(part)
        try cache.store(id, from: source, offset: 100, length: 500_000)
        let file = try #require(cache.open(id))
        defer { file.close() }
        #expect(try Self.contents(file) == part)
    }

    @Test func processesSharingTheDirectorySeeWholeChunks() async throws {
        let cache = try Self.makeCache()
        let other = try ChunkCache(directory: cache.directory)
        let bytes = Array(repeating: UInt8(42), count: 1 << 20)
        let id = SpookyHash.hash(bytes)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { try Self.put(bytes, in: other) }
                group.addTask {
                    guard let file = cache.open(id) else { return }
                    defer { file.close() }
                    let length = try file.length()
                    #expect(length == Int64(bytes.count))
                }
            }
            try await group.waitForAll()
        }
        #expect(cache.open(id) != nil)
    }

    static func path(of id: ChunkID, in cache: ChunkCache) -> String? {
        let chunks = cache.directory.appendingPathComponent("chunks").path
        let name = id.base64.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
        return FileManager.default.subpaths(atPath: chunks)?.first { $0.hasSuffix(name) }.map { chunks + "/" + $0 }
    }
}
