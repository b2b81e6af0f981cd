import Foundation
import Testing
import WOPIStorage

@Suite("AtomicFile: the one atomic, durable, private write path of the file-backed stores")
struct AtomicFileTests {
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func mode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    @Test("replace creates the folder 0700 and the file 0600, and leaves no temporary file")
    func modesAndLeftovers() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = AtomicFile(url: root.appendingPathComponent("a/b/secret.json"))
        #expect(try await file.read() == nil)
        try await file.replace(with: Data("one".utf8))
        try await file.replace(with: Data("two".utf8))
        #expect(try await file.read() == Data("two".utf8))
        #expect(try Self.mode(file.url) == 0o600)
        #expect(try Self.mode(file.url.deletingLastPathComponent()) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
        #expect(names == ["secret.json"])
        try await file.remove()
        try await file.remove()
        #expect(try await file.read() == nil)
    }

    @Test("a reader never sees a partial file while another instance replaces it over and over")
    func readersSeeWholeVersions() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("big.bin")
        let versions = (0..<4).map { Data(repeating: UInt8(65 + $0), count: 512 * 1024) }
        try await AtomicFile(url: url).replace(with: versions[0])
        let torn = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                let writer = AtomicFile(url: url)
                for round in 1...24 { try await writer.replace(with: versions[round % versions.count]) }
                return 0
            }
            for _ in 0..<2 {
                group.addTask {
                    let reader = AtomicFile(url: url)
                    var torn = 0
                    for _ in 0..<60 {
                        let data = try #require(try await reader.read())
                        if !versions.contains(data) { torn += 1 }
                    }
                    return torn
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(torn == 0)
    }

    @Test("40 concurrent updates through two instances lose none")
    func updatesSerialise() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("counter")
        let files = [AtomicFile(url: url), AtomicFile(url: url)]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let file = files[index % 2]
                group.addTask {
                    _ = try await file.update { data in
                        let count = data.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
                        return (Data(String(count + 1).utf8), ())
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await files[0].read() == Data("40".utf8))
        #expect(try Self.mode(url) == 0o600)
    }

    @Test("16 racing creators agree on one content, and none sees an empty file")
    func racingCreators() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("keys/token.key")
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await AtomicFile(url: url).readOrCreate(Data(repeating: UInt8(index), count: 32))
                }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(Set(results).count == 1)
        #expect(results.allSatisfy { $0.count == 32 })
        #expect(try await AtomicFile(url: url).read() == results.first)
    }

    @Test("a folder in the way is reported as a storage error that says what to do")
    func notAFolder() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("x".utf8).write(to: root.appendingPathComponent("plain"))
        let error = await #expect(throws: StorageError.self) {
            try await AtomicFile(url: root.appendingPathComponent("plain/file.json")).replace(with: Data())
        }
        #expect(error?.message.contains("is not a directory") == true)
    }
}
