import ChunkedVersionStore
import Foundation
import NIOCore
import SQLiteStorage
import Testing
import WOPIStorage

@Suite("SQLite storage: several connections and processes")
struct SQLiteStorageConcurrencyTests {
    private let small = SQLiteStorage.Configuration(
        chunkSize: 8_192, chunksPerTransaction: 2, versionRetention: .currentOnly)

    @Test("a second storage on the same file sees the same data")
    func secondInstance() async throws {
        let file = try TemporaryDatabaseFile()
        let first = try file.openStorage()
        let root = try await first.rootContainer(forUser: "alice")
        let doc = try await first.createFile(
            named: "a.txt", in: root.id, content: TestContent.stream(seed: 4, size: 1_000), overwrite: false)

        let second = try file.openStorage()
        #expect(try await second.rootContainer(forUser: "alice").id == root.id)
        #expect(try await second.file(doc.id) == doc)
        let written = try await second.writeFile(
            doc.id, content: TestContent.stream(seed: 5, size: 2_000), expectedVersion: doc.version)
        #expect(try await first.file(doc.id) == written)
        #expect(try await TestContent.collect(first.readFile(doc.id).body) == TestContent.bytes(seed: 5, 0..<2_000))
    }

    @Test("concurrent writers on one file: the final content is exactly one writer's, whole")
    func concurrentWriters() async throws {
        let file = try TemporaryDatabaseFile()
        let storages = try (0..<2).map { _ in try file.openStorage(small) }
        let root = try await storages[0].rootContainer(forUser: "alice")
        let doc = try await storages[0].createFile(named: "w.bin", in: root.id, content: .empty, overwrite: false)
        let size = 50_000
        let versions = try await withThrowingTaskGroup(of: String.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    try await storages[writer % 2].writeFile(
                        doc.id, content: TestContent.stream(seed: writer, size: size, pieceSize: 3_000),
                        expectedVersion: nil
                    ).version
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(versions.count == 8)
        let final = try await storages[1].file(doc.id)
        #expect(versions.contains(final.version))
        let bytes = try await TestContent.collect(storages[0].readFile(doc.id).body)
        let winners = try await (0..<8).asyncFilter {
            try await TestContent.sha256(seed: $0, size: size) == final.sha256
        }
        #expect(winners.count == 1)
        #expect(bytes == TestContent.bytes(seed: try #require(winners.first), 0..<size))
        #expect(try await TemporaryDatabaseFile.strayChunks(storages[0].database) == 0)
    }

    @Test("concurrent createFile with one name: exactly one wins")
    func concurrentCreate() async throws {
        let file = try TemporaryDatabaseFile()
        let storages = try (0..<2).map { _ in try file.openStorage(small) }
        let root = try await storages[0].rootContainer(forUser: "alice")
        let outcomes = await withTaskGroup(of: StorageError.Code?.self) { group in
            for writer in 0..<16 {
                group.addTask {
                    do {
                        _ = try await storages[writer % 2].createFile(
                            named: "same.txt", in: root.id, content: TestContent.stream(seed: writer, size: 20_000),
                            overwrite: false)
                        return nil
                    } catch let error as StorageError {
                        return error.code
                    } catch {
                        return .io
                    }
                }
            }
            return await group.reduce(into: [StorageError.Code?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.filter { $0 == .nameConflict }.count == 15)
        #expect(try await storages[1].children(of: root.id).count == 1)
        #expect(try await TemporaryDatabaseFile.strayChunks(storages[0].database) == 0)
    }

    @Test("integrity_check is ok after a concurrent stress run")
    func stress() async throws {
        let file = try TemporaryDatabaseFile()
        let storages = try (0..<3).map { _ in try file.openStorage(small) }
        let root = try await storages[0].rootContainer(forUser: "alice")
        let folders = try await (0..<3).asyncMap { try await storages[0].createContainer(named: "F\($0)", in: root.id) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    let storage = storages[worker % 3]
                    for step in 0..<12 {
                        let folder = folders[(worker + step) % 3].id
                        let name = "f\(worker)-\(step % 4).bin"
                        let seed = worker * 100 + step
                        let doc = try await storage.createFile(
                            named: name, in: folder, content: TestContent.stream(seed: seed, size: 30_000),
                            overwrite: true)
                        let read = try await storage.readFile(doc.id, range: 5_000..<25_000)
                        let bytes = try await TestContent.collect(read.body)
                        // Another worker may have replaced the file between our write and our read.
                        #expect(bytes.count == 20_000)
                        if step % 3 == 0 {
                            _ = try? await storage.move(
                                doc.id, to: folders[(worker + step + 1) % 3].id, newName: nil, replacing: true)
                        }
                        if step % 5 == 4 { try? await storage.delete(doc.id) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await storages[0].database.integrityCheck() == ["ok"])
        #expect(try await TemporaryDatabaseFile.strayChunks(storages[0].database) == 0)
        #expect(try await TemporaryDatabaseFile.count(storages[0].database, "version_leases") == 0)
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }

    func asyncFilter(_ isIncluded: (Element) async throws -> Bool) async rethrows -> [Element] {
        var result: [Element] = []
        for element in self where try await isIncluded(element) { result.append(element) }
        return result
    }
}
