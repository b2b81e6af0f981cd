import FileSystemStorage
import Foundation
import NIOCore
import Testing
import WOPIStorage
import WOPITestSupport

/// What the version conformance kit cannot see: where fs keeps versions on disk, and what other programs do to them.
@Suite("FileSystemStorage versions on a real directory")
struct FileSystemVersionTests {
    private func text(_ value: String) -> ByteStream { ByteStream(buffer: ByteBuffer(string: value)) }

    private func read(_ content: FileContent) async throws -> String {
        String(buffer: try await content.body.collect(upTo: 1 << 20))
    }

    /// A file saved twice, through the backend.
    private func savedTwice(_ storage: FileSystemStorage) async throws -> (first: FileMetadata, second: FileMetadata) {
        let root = try await storage.rootContainer(forUser: "alice")
        let first = try await storage.createFile(named: "a.txt", in: root.id, content: text("one"), overwrite: false)
        let second = try await storage.writeFile(first.id, content: text("two"), expectedVersion: first.version)
        return (first, second)
    }

    @Test func earlierVersionsLiveBesideTheTreeAsLinksNeverInAUsersFolder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let (first, _) = try await savedTwice(storage)
        let kept = directory.appending(".wopikit/versions/\(first.id.rawValue)/\(first.version)")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "one")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appending("users/alice").path) == ["a.txt"])
    }

    @Test func aVersionNameThatIsAPathReachesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let (first, _) = try await savedTwice(storage)
        try "secret".write(to: directory.appending("users/bob.txt"), atomically: true, encoding: .utf8)
        for name in ["../../../users/bob.txt", "..", ".", "", "\(first.version)/x", "%2e%2e"] {
            let error = await #expect(throws: StorageError.self, "readVersion(\"\(name)\")") {
                try await storage.readVersion(name, of: first.id, range: nil)
            }
            #expect(error?.code == .notFound)
            await #expect(throws: StorageError.self) { try await storage.deleteVersion(name, of: first.id) }
            await #expect(throws: StorageError.self) { try await storage.keepVersion(name, of: first.id, true) }
        }
        #expect(try await read(try await storage.readVersion(first.version, of: first.id, range: nil)) == "one")
    }

    @Test func anEditByAnotherProgramIsTheCurrentVersionSavedByNobody() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let (first, second) = try await savedTwice(storage)
        let handle = try FileHandle(forWritingTo: directory.appending("users/alice/a.txt"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("!!".utf8))
        try handle.close()
        let versions = try await storage.versions(of: first.id)
        #expect(versions.count == 2)
        #expect(versions[0].id != second.version && versions[0].size == 5 && versions[0].sha256 == nil)
        #expect(versions[0].save == SaveContext(userID: nil, path: .unknown))
        #expect(versions[1].id == first.version)
        #expect(try await read(try await storage.readVersion(first.version, of: first.id, range: nil)) == "one")
    }

    @Test func deletingTheFileOrRemovingItByHandTakesItsVersions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let (first, _) = try await savedTwice(storage)
        let folder = directory.appending(".wopikit/versions/\(first.id.rawValue)")
        #expect(FileManager.default.fileExists(atPath: folder.path))
        try await storage.delete(first.id)
        #expect(!FileManager.default.fileExists(atPath: folder.path), "deleted through the backend")

        let (again, _) = try await savedTwice(storage)
        let againFolder = directory.appending(".wopikit/versions/\(again.id.rawValue)")
        try FileManager.default.removeItem(at: directory.appending("users/alice/a.txt"))
        #expect(FileManager.default.fileExists(atPath: againFolder.path))
        let report = try await storage.collectGarbage()
        #expect(report.retiredVersions == 1)
        #expect(!FileManager.default.fileExists(atPath: againFolder.path), "removed by hand, then collected")
    }

    @Test func keepLastOneKeepsNoEarlierVersion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url, configuration: .init(versionRetention: .currentOnly))
        let (first, second) = try await savedTwice(storage)
        #expect(try await storage.versions(of: first.id).map(\.id) == [second.version])
        let folder = directory.appending(".wopikit/versions")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func theSaveRecordSurvivesARestartAndLongUserIDs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storage = try FileSystemStorage(root: directory.url)
        let root = try await storage.rootContainer(forUser: "alice")
        let long = String(repeating: "ü:", count: 300)
        let first = try await SaveContext.$current.withValue(
            SaveContext(userID: "a:b c", path: .commandLine, isAutosave: true)
        ) {
            try await storage.createFile(named: "r.txt", in: root.id, content: text("x"), overwrite: false)
        }
        _ = try await SaveContext.$current.withValue(SaveContext(userID: long, path: .mount, isExitSave: true)) {
            try await storage.writeFile(first.id, content: text("y"), expectedVersion: first.version)
        }
        let reopened = try FileSystemStorage(root: directory.url)
        let versions = try await reopened.versions(of: first.id)
        #expect(
            versions.map(\.save) == [
                SaveContext(userID: nil, path: .mount, isExitSave: true),
                SaveContext(userID: "a:b c", path: .commandLine, isAutosave: true),
            ])
    }
}
