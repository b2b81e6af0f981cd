import ChunkedVersionStore
import Foundation
import NIOCore
import SQLiteStorage
import Testing
import WOPIStorage

@Suite("SQLite storage: tree and content")
struct SQLiteStorageTests {
    @Test("create, read, overwrite, rename, move and delete")
    func lifecycle() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        #expect(try await storage.rootContainer(forUser: "alice") == root)
        #expect(root.isRoot && root.ownerID == "alice")

        let docs = try await storage.createContainer(named: "Docs", in: root.id)
        let created = try await storage.createFile(
            named: "a.docx", in: docs.id, content: ByteStream(buffer: ByteBuffer(string: "hello")), overwrite: false)
        #expect(created.size == 5 && created.ownerID == "alice" && created.parentID == docs.id)
        #expect(created.sha256 == ContentDigest.sha256(of: "hello"))
        #expect(try await TestContent.collect(storage.readFile(created.id).body) == Array("hello".utf8))

        let overwritten = try await storage.writeFile(
            created.id, content: ByteStream(buffer: ByteBuffer(string: "bye")), expectedVersion: created.version)
        #expect(overwritten.id == created.id && overwritten.version != created.version && overwritten.size == 3)
        await #expect(throws: StorageError.self) {
            _ = try await storage.writeFile(created.id, content: .empty, expectedVersion: created.version)
        }
        let replaced = try await storage.createFile(
            named: "a.docx", in: docs.id, content: ByteStream(buffer: ByteBuffer(string: "again")), overwrite: true)
        #expect(replaced.id == created.id && replaced.size == 5)

        let renamed = try await storage.rename(created.id, to: "b.docx")
        #expect(renamed.name == "b.docx" && renamed.id == created.id)
        let moved = try await storage.move(created.id, to: root.id, newName: nil, replacing: false)
        #expect(moved.parentID == root.id)
        #expect(try await storage.children(of: docs.id).isEmpty)
        #expect(try await storage.children(of: root.id).map(\.name).sorted() == ["Docs", "b.docx"])
        #expect(try await TestContent.collect(storage.readFile(created.id).body) == Array("again".utf8))

        try await storage.delete(created.id)
        try await storage.delete(docs.id)
        await #expect(throws: StorageError.self) { _ = try await storage.item(created.id) }
        #expect(try await storage.children(of: root.id).isEmpty)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 0)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunk_pieces") == 0)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunks") == 0)
    }

    @Test("errors map to storage error codes")
    func errorCodes() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let folder = try await storage.createContainer(named: "F", in: root.id)
        let inner = try await storage.createContainer(named: "Inner", in: folder.id)
        let doc = try await storage.createFile(named: "d.txt", in: folder.id, content: .empty, overwrite: false)
        #expect(doc.size == 0 && doc.sha256 == ContentDigest.emptySHA256)

        try await expectCode(.nameConflict) { _ = try await storage.createContainer(named: "F", in: root.id) }
        try await expectCode(.nameConflict) {
            _ = try await storage.createFile(named: "Inner", in: folder.id, content: .empty, overwrite: true)
        }
        try await expectCode(.notEmpty) { try await storage.delete(folder.id) }
        try await expectCode(.invalidName) { _ = try await storage.createContainer(named: "a/b", in: root.id) }
        try await expectCode(.invalidName) {
            _ = try await storage.move(folder.id, to: inner.id, newName: nil, replacing: false)
        }
        try await expectCode(.invalidName) {
            _ = try await storage.move(folder.id, to: folder.id, newName: nil, replacing: false)
        }
        try await expectCode(.notAFile) { _ = try await storage.readFile(folder.id) }
        try await expectCode(.notAContainer) { _ = try await storage.children(of: doc.id) }
        try await expectCode(.notFound) { _ = try await storage.item(.random()) }
        try await expectCode(.unsupported) { try await storage.delete(root.id) }
        try await expectCode(.versionMismatch) {
            _ = try await storage.writeFile(doc.id, content: .empty, expectedVersion: "12345")
        }
    }

    @Test("names are NFC-normalised, then exact and case-sensitive")
    func names() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let composed = try await storage.createContainer(named: "Caf\u{E9}", in: root.id)
        try await expectCode(.nameConflict) { _ = try await storage.createContainer(named: "Cafe\u{301}", in: root.id) }
        _ = try await storage.createContainer(named: "caf\u{E9}", in: root.id)
        #expect(try await storage.child(named: "Cafe\u{301}", in: root.id)?.id == composed.id)
    }

    @Test("moving into another user's tree, and replacing a file")
    func moves() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let alice = try await storage.rootContainer(forUser: "alice")
        let bob = try await storage.rootContainer(forUser: "bob")
        let folder = try await storage.createContainer(named: "Shared", in: alice.id)
        let doc = try await storage.createFile(
            named: "x.txt", in: folder.id, content: ByteStream(buffer: ByteBuffer(string: "x")), overwrite: false)
        let moved = try await storage.move(folder.id, to: bob.id, newName: nil, replacing: false)
        #expect(moved.ownerID == "bob")
        #expect(try await storage.item(doc.id).ownerID == "bob")

        let other = try await storage.createFile(
            named: "y.txt", in: bob.id, content: ByteStream(buffer: ByteBuffer(string: "yy")), overwrite: false)
        try await expectCode(.nameConflict) {
            _ = try await storage.move(doc.id, to: bob.id, newName: "y.txt", replacing: false)
        }
        _ = try await storage.move(doc.id, to: bob.id, newName: "y.txt", replacing: true)
        try await expectCode(.notFound) { _ = try await storage.item(other.id) }
        #expect(try await TestContent.collect(storage.readFile(doc.id).body) == Array("x".utf8))
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 1)
    }

    @Test("a 32 MiB file streams in and out, chunk by chunk, with its digest")
    func largeFile() async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage()
        let root = try await storage.rootContainer(forUser: "alice")
        let size = 32 * 1024 * 1024
        let stored = try await storage.createFile(
            named: "big.bin", in: root.id, content: TestContent.stream(seed: 1, size: size), overwrite: false)
        let expected = try await TestContent.sha256(seed: 1, size: size)
        #expect(stored.size == Int64(size) && stored.sha256 == expected)
        // One FullFile chunk, stored as one file beside the database, not as pieces in it.
        #expect(try await TemporaryDatabaseFile.count(storage.database, "chunk_pieces") == 0)
        #expect(try TemporaryDatabaseFile.chunkFiles(storage.database) == ["\(stored.version)/0": size])

        let read = try await storage.readFile(stored.id)
        #expect(read.body.knownLength == Int64(size))
        var digest = ContentDigest()
        var largestPiece = 0
        for try await piece in read.body {
            largestPiece = max(largestPiece, piece.readableBytes)
            digest.update(piece)
        }
        #expect(digest.byteCount == Int64(size) && digest.finalize() == expected)
        #expect(largestPiece <= 256 * 1024)
    }

    @Test("ranged reads across chunk boundaries", arguments: [0..<1, 900..<2_100, 1_000..<2_000, 4_990..<9_000, 7..<7])
    func rangedRead(_ range: Range<Int>) async throws {
        let file = try TemporaryDatabaseFile()
        let storage = try file.openStorage(
            .init(chunkSize: 1_000, chunksPerTransaction: 2, versionRetention: .currentOnly))
        let root = try await storage.rootContainer(forUser: "alice")
        let size = 5_000
        let stored = try await storage.createFile(
            named: "r.bin", in: root.id, content: TestContent.stream(seed: 3, size: size, pieceSize: 333),
            overwrite: false)
        let read = try await storage.readFile(stored.id, range: Int64(range.lowerBound)..<Int64(range.upperBound))
        let clamped = min(range.lowerBound, size)..<min(range.upperBound, size)
        #expect(read.metadata.size == Int64(size))
        #expect(read.body.knownLength == Int64(clamped.count))
        #expect(try await TestContent.collect(read.body) == TestContent.bytes(seed: 3, clamped))
    }
}

/// Expects `body` to throw a ``StorageError`` with `code`.
func expectCode(
    _ code: StorageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async throws {
    do {
        try await body()
        Issue.record("expected StorageError.\(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as StorageError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    }
}

extension ContentDigest {
    /// The SHA-256 of a string's UTF-8 bytes.
    static func sha256(of text: String) -> Data {
        var digest = ContentDigest()
        digest.update(ByteBuffer(string: text))
        return digest.finalize()
    }
}
