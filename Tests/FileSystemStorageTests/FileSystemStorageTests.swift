import FileSystemStorage
import Foundation
import NIOCore
import Testing
import WOPIStorage
import WOPITestSupport

@Suite("FileSystemStorage on a real directory")
struct FileSystemStorageTests {
    private func text(_ value: String) -> ByteStream { ByteStream(buffer: ByteBuffer(string: value)) }

    private func read(_ storage: FileSystemStorage, _ id: ItemID) async throws -> String {
        String(buffer: try await storage.readFile(id).body.collect(upTo: 1 << 20))
    }

    @Test func filesAreOrdinaryFilesUnderUsers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let docs = try await storage.createContainer(named: "Docs", in: root.id)
        _ = try await storage.createFile(named: "a.txt", in: docs.id, content: text("visible"), overwrite: false)
        let onDisk = try String(contentsOf: directory.appending("users/alice/Docs/a.txt"), encoding: .utf8)
        #expect(onDisk == "visible")
        await #expect(throws: StorageError.self) { try await storage.rootContainer(forUser: "../etc") }
    }

    @Test func newNamesAreStoredInNFC() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let decomposed = "Re\u{301}sume\u{301}.docx"
        let file = try await storage.createFile(named: decomposed, in: root.id, content: text("x"), overwrite: false)
        #expect(Array(file.name.unicodeScalars) == Array("R\u{E9}sum\u{E9}.docx".unicodeScalars))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appending("users/alice").path)
        #expect(names.map { Array($0.unicodeScalars) } == [Array("R\u{E9}sum\u{E9}.docx".unicodeScalars)])
        let error = await #expect(throws: StorageError.self) {
            try await storage.createFile(
                named: "R\u{E9}sum\u{E9}.docx", in: root.id, content: text("y"), overwrite: false)
        }
        #expect(error?.code == .nameConflict)
    }

    @Test func idSurvivesExternalMovesOfTheFileAndItsParent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let docs = try await storage.createContainer(named: "docs", in: root.id)
        let file = try await storage.createFile(named: "a.txt", in: docs.id, content: text("kept"), overwrite: false)

        let manager = FileManager.default
        try manager.moveItem(
            at: directory.appending("users/alice/docs/a.txt"), to: directory.appending("users/alice/docs/b.txt"))
        #expect(try await storage.item(file.id).name == "b.txt")
        try manager.moveItem(at: directory.appending("users/alice/docs"), to: directory.appending("users/alice/papers"))
        #expect(try await storage.item(file.id).parentID == docs.id)
        #expect(try await storage.container(docs.id).name == "papers")
        #expect(try await storage.ancestors(of: file.id).map(\.name) == ["alice", "papers"])
        #expect(try await read(storage, file.id) == "kept")

        let restarted = try FileSystemStorage(root: directory.url)
        #expect(try await restarted.item(file.id).name == "b.txt")
        #expect(try await restarted.file(file.id).version == file.version)
    }

    @Test func aFileDroppedInByAnotherProgramGetsAStableID() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let path = directory.appending("users/alice/dropped.txt")
        try Data("from a shell".utf8).write(to: path)

        let listed = try #require(try await storage.child(named: "dropped.txt", in: root.id))
        #expect(try await storage.child(named: "dropped.txt", in: root.id)?.id == listed.id)
        #expect(try await FileSystemStorage(root: directory.url).item(listed.id).name == "dropped.txt")
        let before = try await storage.file(listed.id)
        #expect(before.sha256 == nil)
        #expect(!before.version.isEmpty)
        #expect(try await read(storage, listed.id) == "from a shell")

        // An in-place edit by another program gives a new version (and no stale digest).
        let handle = try Foundation.FileHandle(forWritingTo: path)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" and more".utf8))
        try handle.close()
        let edited = try await storage.file(listed.id)
        #expect(edited.version != before.version)
        #expect(edited.size == Int64("from a shell and more".utf8.count))

        let written = try await storage.writeFile(
            listed.id, content: text("via WOPIKit"), expectedVersion: edited.version)
        #expect(written.sha256 != nil)
        #expect(try await storage.file(listed.id).version == written.version)
    }

    @Test func symbolicLinksAreNeverFollowed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: directory.appending("users/alice/etc").path, withDestinationPath: "/etc")
        try manager.createSymbolicLink(
            atPath: directory.appending("users/alice/passwd").path, withDestinationPath: "/etc/passwd")
        #expect(try await storage.children(of: root.id).isEmpty)
        let error = await #expect(throws: StorageError.self) {
            try await storage.createFile(named: "passwd", in: root.id, content: text("x"), overwrite: true)
        }
        #expect(error?.code == .nameConflict)
        #expect(try String(contentsOfFile: "/etc/passwd", encoding: .utf8) != "x")

        // A cached directory swapped for a link to a copy outside the root must not be reached through the link.
        let inside = try await storage.createContainer(named: "inside", in: root.id)
        let secret = try await storage.createFile(
            named: "secret.txt", in: inside.id, content: text("s"), overwrite: false)
        #expect(try await storage.item(secret.id).name == "secret.txt")
        try manager.moveItem(at: directory.appending("users/alice/inside"), to: outside.appending("inside"))
        try manager.createSymbolicLink(
            atPath: directory.appending("users/alice/inside").path,
            withDestinationPath: outside.appending("inside").path)
        await #expect(throws: StorageError.self) { try await storage.item(secret.id) }
        await #expect(throws: StorageError.self) { try await storage.readFile(secret.id) }
        await #expect(throws: StorageError.self) { try await storage.children(of: inside.id) }
        #expect(try await storage.children(of: root.id).isEmpty)
    }

    @Test func leftoversOfACrashedWriteAreRemovedAndTheOldContentIsWhole() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let file = try await storage.createFile(named: "doc.txt", in: root.id, content: text("old"), overwrite: false)
        // What a crash in the middle of a write leaves: a partial temporary file that no process holds.
        let temporary = directory.appending(".wopikit/tmp/write-crashed.tmp")
        try Data(repeating: 0x41, count: 10_000).write(to: temporary)

        let restarted = try FileSystemStorage(root: directory.url)
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(try await read(restarted, file.id) == "old")
        #expect(try await restarted.file(file.id).version == file.version)
        #expect(try await restarted.children(of: root.id).map(\.name) == ["doc.txt"])
    }

    @Test func twoInstancesOnOneRootSeeEachOthersChanges() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try FileSystemStorage(root: directory.url)
        let cli = try FileSystemStorage(root: directory.url)
        let root = try await host.rootContainer(forUser: "alice")
        #expect(try await cli.rootContainer(forUser: "alice").id == root.id)

        let file = try await host.createFile(named: "shared.txt", in: root.id, content: text("one"), overwrite: false)
        #expect(try await read(cli, file.id) == "one")
        _ = try await cli.rename(file.id, to: "renamed.txt")
        #expect(try await host.item(file.id).name == "renamed.txt")
        let second = try await cli.writeFile(file.id, content: text("two"), expectedVersion: file.version)
        #expect(try await host.file(file.id).version == second.version)
        #expect(try await read(host, file.id) == "two")
        let error = await #expect(throws: StorageError.self) {
            try await host.writeFile(file.id, content: text("stale"), expectedVersion: file.version)
        }
        #expect(error?.code == .versionMismatch)

        // Creates racing through both instances: exactly one wins.
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                let storage = index.isMultiple(of: 2) ? host : cli
                group.addTask {
                    (try? await storage.createFile(
                        named: "race.txt", in: root.id, content: ByteStream(buffer: ByteBuffer(string: "\(index)")),
                        overwrite: false)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)

        try await cli.delete(file.id)
        let gone = await #expect(throws: StorageError.self) { try await host.item(file.id) }
        #expect(gone?.code == .notFound)
    }

    @Test func a64MiBFileStreamsInAndOut() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let chunkSize = ByteStream.preferredChunkSize
        let chunks = 64 * 1024 * 1024 / chunkSize
        let body = ByteStream(knownLength: Int64(chunks * chunkSize)) {
            var index = 0
            return {
                guard index < chunks else { return nil }
                defer { index += 1 }
                var chunk = ByteBuffer(repeating: UInt8(truncatingIfNeeded: index), count: chunkSize)
                chunk.setInteger(UInt64(index), at: 0)
                return chunk
            }
        }
        var expected = ContentDigest()
        for index in 0..<chunks {
            var chunk = ByteBuffer(repeating: UInt8(truncatingIfNeeded: index), count: chunkSize)
            chunk.setInteger(UInt64(index), at: 0)
            expected.update(chunk)
        }
        let file = try await storage.createFile(named: "big.bin", in: root.id, content: body, overwrite: false)
        #expect(file.size == Int64(chunks * chunkSize))
        #expect(file.sha256 == expected.finalize())

        let content = try await storage.readFile(file.id)
        var read = ContentDigest()
        var largest = 0
        for try await chunk in content.body {
            largest = max(largest, chunk.readableBytes)
            read.update(chunk)
        }
        #expect(read.byteCount == file.size)
        #expect(read.finalize() == expected.finalize())
        #expect(largest <= ByteStream.preferredChunkSize)
    }
}
