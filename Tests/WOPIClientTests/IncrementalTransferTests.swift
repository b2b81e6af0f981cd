import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIChunking
import WOPIClient
import WOPIModels
import WOPIStorage
import WOPITestSupport

/// Incremental transfer through `WOPIClient.upload`/`download` and a ``ChunkCache`` against a live
/// `wopi-host serve` (real sockets): with co-authoring (which advertises incremental transfer to every client),
/// without it (which offers it to WOPIKit's client alone, on storage that keeps chunks), and with it off.
@Suite struct IncrementalTransferTests {
    /// A served host, with `--coauthoring` when `plus`, else with `extraArguments`, and a file token for
    /// Welcome.docx.
    static func withHost(
        plus: Bool, extraArguments: [String] = HostProcess.wholeFileArguments,
        _ body: @Sendable (WOPIResource, TemporaryDirectory) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = try HostProcess(
            dataDirectory: directory.url, extraArguments: plus ? HostProcess.coauthoringArguments : extraArguments)
        _ = try await process.waitUntilListening()
        do {
            let token = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            try await body(
                try WOPIResource(endpoint: URL(string: token.wopiSrc)!, accessToken: token.accessToken), directory)
        } catch {
            await process.stop()
            throw error
        }
        await process.stop()
    }

    /// Writes a zip at `path`: a 2 MiB stored entry of seeded random bytes and a small text entry `text`.
    static func writeZip(_ path: String, text: String) async throws {
        let script = """
            from random import Random
            from sys import argv
            from zipfile import ZipFile, ZIP_STORED
            rng = Random(7)
            with ZipFile(argv[1], "w", ZIP_STORED) as z:
                z.writestr("media/big.bin", bytes(rng.getrandbits(8) for _ in range(2 * 1024 * 1024)))
                z.writestr("word/document.xml", argv[2])
            """
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path, text])
        #expect(result.status == 0, "\(result.error)")
    }

    static func cache(in directory: TemporaryDirectory, _ name: String) throws -> ChunkCache {
        try ChunkCache(directory: directory.url.appendingPathComponent("cache-\(name)"))
    }

    /// Writes a zip at `local` and uploads it under the WOPI lock `lockID` with `cache`, changes its small entry and
    /// uploads it again, then unlocks; both uploads must be incremental. Returns both uploads' figures.
    static func uploadAnEdit(
        _ client: WOPIClient, to file: WOPIResource, from local: String, cache: ChunkCache, lockID: String
    ) async throws -> (first: TransferFigures, second: TransferFigures) {
        try await writeZip(local, text: "<p>first</p>")
        try await client.lock(file, lockID: lockID)
        let first = try await client.upload(URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: cache)
        try await writeZip(local, text: "<p>second, edited</p>")
        let second = try await client.upload(URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: cache)
        try await client.unlock(file, lockID: lockID)
        #expect(first.incremental && second.incremental, "\(first), \(second)")
        return (first, second)
    }

    @Test("an edit sends and fetches only the changed chunks; the host's bytes are the local file's")
    func smallEditCrossesTheWireAlone() async throws {
        try await Self.withHost(plus: true) { file, directory in
            try await withClient { client in
                let local = directory.appending("local.docx").path
                let mine = try Self.cache(in: directory, "mine")
                let lockID = "incremental-\(UUID())"
                let (first, second) = try await Self.uploadAnEdit(
                    client, to: file, from: local, cache: mine, lockID: lockID)
                #expect(first.wireBytes > first.fileBytes, "the first upload sends every chunk")
                #expect(second.wireBytes < second.fileBytes / 20, "\(second)")

                // A second client downloads everything once, then only what changed.
                let theirs = try Self.cache(in: directory, "theirs")
                let copy = directory.appending("copy.docx")
                let full = try await client.download(file, to: copy, cache: theirs)
                #expect(full.incremental && full.chunksTransferred == full.chunks)
                #expect(FileManager.default.contents(atPath: copy.path) == FileManager.default.contents(atPath: local))
                try await client.lock(file, lockID: lockID)
                try await Self.writeZip(local, text: "<p>third</p>")
                _ = try await client.upload(URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: mine)
                try await client.unlock(file, lockID: lockID)
                let delta = try await client.download(file, to: copy, cache: theirs)
                #expect(delta.incremental && delta.chunksTransferred < delta.chunks, "\(delta)")
                #expect(delta.wireBytes < delta.fileBytes / 20, "\(delta)")
                #expect(FileManager.default.contents(atPath: copy.path) == FileManager.default.contents(atPath: local))
                // GetFile serves the same bytes.
                let served = Data(try await client.getFile(file).body.collect(upTo: 1 << 26).readableBytesView)
                #expect(served == FileManager.default.contents(atPath: local))
            }
        }
    }

    @Test("without co-authoring, a host on SQLite offers incremental transfer to WOPIKit's client alone")
    func offeredToWOPIKitsClientWithoutCoauthoring() async throws {
        try await Self.withHost(plus: false, extraArguments: []) { file, directory in
            // Any other client gets the CheckFileInfo of a host without incremental transfer.
            let token = try #require(file.accessToken?.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let url = file.endpoint.absoluteString + "?access_token=" + token
            let plain = try await TestHTTP.send(.GET, url)
            #expect(plain.status == 200 && !plain.text.contains("SupportsChunkedFileTransfer"), "\(plain.text)")
            let asked = try await TestHTTP.send(.GET, url, headers: [("X-WOPIKit-IncrementalTransfer", "1")])
            #expect(asked.text.contains(#""SupportsChunkedFileTransfer":true"#), "\(asked.text)")
            #expect(!asked.text.contains("SupportsCoauth") && !asked.text.contains("SupportsResumableFileTransfer"))

            try await withClient { client in
                let local = directory.appending("local.docx").path
                let (_, second) = try await Self.uploadAnEdit(
                    client, to: file, from: local, cache: try Self.cache(in: directory, "own"),
                    lockID: "own-client-\(UUID())")
                #expect(second.wireBytes < second.fileBytes / 20, "\(second)")
                let served = Data(try await client.getFile(file).body.collect(upTo: 1 << 26).readableBytesView)
                #expect(served == FileManager.default.contents(atPath: local))
            }
        }
    }

    @Test("a host with incremental transfer off gets GetFile/PutFile with the same result")
    func fallbackWithoutCSPPPlus() async throws {
        try await Self.withHost(plus: false) { file, directory in
            try await withClient { client in
                let local = directory.appending("local.docx").path
                try await Self.writeZip(local, text: "<p>plain</p>")
                let lockID = "fallback-\(UUID())"
                try await client.lock(file, lockID: lockID)
                let cache = try Self.cache(in: directory, "fallback")
                let up = try await client.upload(
                    URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: cache)
                try await client.unlock(file, lockID: lockID)
                #expect(!up.incremental && up.wireBytes == up.fileBytes)
                let copy = directory.appending("copy.docx")
                let down = try await client.download(file, to: copy, cache: cache)
                #expect(!down.incremental && down.wireBytes == down.fileBytes)
                #expect(FileManager.default.contents(atPath: copy.path) == FileManager.default.contents(atPath: local))
            }
        }
    }

    @Test("a corrupted cache entry is fetched again; the downloaded file is whole")
    func corruptedCacheEntry() async throws {
        try await Self.withHost(plus: true) { file, directory in
            try await withClient { client in
                let local = directory.appending("local.docx").path
                try await Self.writeZip(local, text: "<p>cached</p>")
                let lockID = "corrupt-\(UUID())"
                try await client.lock(file, lockID: lockID)
                let cache = try Self.cache(in: directory, "corrupt")
                _ = try await client.upload(URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: cache)
                try await client.unlock(file, lockID: lockID)
                // Damage every chunk file the cache holds, as a disk error would.
                let chunks = cache.directory.appendingPathComponent("chunks").path
                for relative in FileManager.default.subpaths(atPath: chunks) ?? [] where relative.contains("/") {
                    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: chunks + "/" + relative))
                    try handle.write(contentsOf: [0xFF, 0x00, 0xFF])
                    try handle.close()
                }
                let copy = directory.appending("copy.docx")
                let figures = try await client.download(file, to: copy, cache: cache)
                #expect(FileManager.default.contents(atPath: copy.path) == FileManager.default.contents(atPath: local))
                #expect(figures.wireBytes >= figures.fileBytes, "the damaged chunks crossed the wire again")
            }
        }
    }

    @Test("two clients: the second upload after the first gets sequenceConflict and overwrites nothing")
    func sequenceRaceBetweenTwoClients() async throws {
        try await Self.withHost(plus: true) { file, directory in
            try await withClient { client in
                let local = directory.appending("local.docx").path
                try await Self.writeZip(local, text: "<p>base</p>")
                let lockID = "race-\(UUID())"
                try await client.lock(file, lockID: lockID)
                let cacheA = try Self.cache(in: directory, "a")
                let cacheB = try Self.cache(in: directory, "b")
                _ = try await client.upload(URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: cacheA)
                // Both clients read the same version.
                _ = try await client.download(file, to: directory.appending("b.docx"), cache: cacheB)
                try await Self.writeZip(local, text: "<p>A's edit</p>")
                _ = try await client.upload(URL(fileURLWithPath: local), to: file, lock: .wopi(lockID), cache: cacheA)
                let aSaved = FileManager.default.contents(atPath: local)
                let other = directory.appending("b-local.docx").path
                try await Self.writeZip(other, text: "<p>B's edit</p>")
                let refused = await #expect(throws: WOPIClientError.self) {
                    try await client.upload(URL(fileURLWithPath: other), to: file, lock: .wopi(lockID), cache: cacheB)
                }
                #expect(refused?.code == .sequenceConflict, "\(String(describing: refused))")
                #expect(refused?.currentSequenceNumber != nil)
                try await client.unlock(file, lockID: lockID)
                let served = Data(try await client.getFile(file).body.collect(upTo: 1 << 26).readableBytesView)
                #expect(served == aSaved, "A's save is intact")
            }
        }
    }
}
