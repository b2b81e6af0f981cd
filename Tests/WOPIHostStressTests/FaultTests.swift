import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SQLiteStorage
import Testing
import WOPIModels
import WOPIStorage
import WOPITestSupport

/// Faults that must lose nothing (issue 16 item 4), each over HTTP against the real `wopi-host serve`, for the
/// file-system and the SQLite storage: a full disk during PutFile, a client that disconnects in the middle of one,
/// a slow GetFile reader while PutFile replaces the file, and a database locked by another process.
@Suite(.serialized) struct FaultTests {
    static let storages = ["fs", "sqlite"]
    static let lock = "fault-lock"

    /// A host on a fresh data directory with one imported file (version 0) locked with ``lock``.
    struct Host {
        let process: HostProcess
        let base: String
        let data: URL
        let file: WOPIFile
        let registry: VersionRegistry
        let client = WOPIClient(connections: 8)

        static func start(_ storage: String, data: URL, size: Int) async throws -> Host {
            let process = try HostProcess(dataDirectory: data, extraArguments: ["--storage", storage])
            do {
                let base = try await process.waitUntilListening()
                let registry = VersionRegistry()
                let file = try await WOPIFile.importFiles(sizes: [size], into: data, registry: registry)[0]
                let host = Host(process: process, base: base, data: data, file: file, registry: registry)
                let locked = try await host.client.lockOperation(WOPIOverride.lock, file, lock: lock, at: base)
                try #require(locked.status == 200, "Lock: \(locked.status)")
                return host
            } catch {
                await process.stop()
                throw error
            }
        }

        private init(process: HostProcess, base: String, data: URL, file: WOPIFile, registry: VersionRegistry) {
            self.process = process
            self.base = base
            self.data = data
            self.file = file
            self.registry = registry
        }

        func stop() async {
            try? await client.shutdown()
            await process.stop()
        }

        /// PutFile of version `version` (`size` bytes), registered first.
        func put(version: Int, size: Int) async throws -> WOPIClient.Reply {
            let content = registry.register(ContentPattern(file: file.index, version: version, size: size))
            return try await client.putFile(file, lock: FaultTests.lock, content: content, at: base)
        }

        /// The version GetFile serves, checked to be one whole registered version.
        func servedVersion() async throws -> Int {
            let (reply, body) = try await client.getFile(file, at: base)
            try #require(reply.status == 200, "GetFile: \(reply.status)")
            return try registry.verify(body, isVersionOf: file.index).version
        }

        /// The lock GetLock reports.
        func currentLock() async throws -> String? {
            let reply = try await client.lockOperation(WOPIOverride.getLock, file, lock: nil, at: base)
            return reply.header(WOPIHeader.lock)
        }

        /// Every regular file under the data directory (temporary files included), by relative path.
        var storedFiles: Set<String> { FaultTests.regularFiles(under: data) }
    }

    static func regularFiles(under root: URL) -> Set<String> {
        let prefix = root.resolvingSymlinksInPath().path + "/"
        var paths: Set<String> = []
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.resolvingSymlinksInPath().path
            paths.insert(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return paths
    }

    // MARK: - Disk full

    @Test(
        "a full disk during PutFile: 500 with X-WOPI-ServerError, old content intact, no temporary file, next PutFile works",
        arguments: storages)
    func diskFullDuringPutFile(_ storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = try await SmallDisk.mount(at: directory.url.appendingPathComponent("disk"), megabytes: 24)
        defer { disk.unmount() }
        let host = try await Host.start(storage, data: disk.url.appendingPathComponent("data"), size: 1 << 20)
        do {
            let before = host.storedFiles
            let full = try await host.put(version: 1, size: 48 << 20)
            #expect(full.status == 500, "PutFile on a full disk")
            let serverError = full.header(WOPIHeader.serverError) ?? ""
            #expect(serverError.contains("disk is full"), "X-WOPI-ServerError: \(serverError)")
            #expect(try await host.servedVersion() == 0, "the previous content is intact")
            #expect(try await host.currentLock() == Self.lock, "the lock is kept")
            let cleaned = try await Polling.until { host.storedFiles == before }
            #expect(cleaned, "files left behind: \(host.storedFiles.subtracting(before))")

            try await disk.resize(megabytes: 160)
            let next = try await host.put(version: 2, size: 8 << 20)
            #expect(next.status == 200, "PutFile once there is room: \(next.header(WOPIHeader.serverError) ?? "")")
            #expect(try await host.servedVersion() == 2)
        } catch {
            await host.stop()
            throw error
        }
        await host.stop()
        if storage == "sqlite" { try await Self.expectIntact(host.data) }
    }

    // MARK: - Client disconnect

    struct CutOff: Error {}

    @Test("a client that disconnects halfway through PutFile: old content intact, lock kept", arguments: storages)
    func clientDisconnectDuringPutFile(_ storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try await Host.start(storage, data: directory.url, size: 512 << 10)
        do {
            let before = host.storedFiles
            let whole = host.registry.register(ContentPattern(file: host.file.index, version: 1, size: 8 << 20))
            let half = ByteStream(knownLength: Int64(whole.size)) {
                let source = whole.stream
                var iterator = source.makeAsyncIterator()
                var sent = 0
                return {
                    guard sent < whole.size / 2 else { throw CutOff() }
                    let chunk = try await iterator.next()
                    sent += chunk?.readableBytes ?? 0
                    return chunk
                }
            }
            await #expect(throws: (any Error).self, "a PutFile whose body stops halfway fails") {
                try await host.client.putFile(host.file, lock: Self.lock, body: half, length: whole.size, at: host.base)
            }
            let cleaned = try await Polling.until { host.storedFiles == before }
            #expect(cleaned, "files left behind: \(host.storedFiles.subtracting(before))")
            #expect(try await host.servedVersion() == 0, "the old content is intact")
            #expect(try await host.currentLock() == Self.lock, "the lock is kept")
            let next = try await host.put(version: 2, size: 1 << 20)
            #expect(next.status == 200)
            #expect(try await host.servedVersion() == 2)
        } catch {
            await host.stop()
            throw error
        }
        await host.stop()
        if storage == "sqlite" { try await Self.expectIntact(host.data) }
    }

    // MARK: - Slow reader

    @Test("a slow GetFile reader while PutFile replaces the file gets one whole version", arguments: storages)
    func slowReaderDuringPutFile(_ storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let size = 24 << 20
        let host = try await Host.start(storage, data: directory.url, size: size)
        do {
            let response = try await host.client.openGetFile(host.file, at: host.base)
            #expect(response.status == .ok)
            var digest = ContentDigest()
            var prefix = ByteBuffer()
            var iterator = response.body.makeAsyncIterator()
            func take(_ chunk: ByteBuffer) {
                digest.update(chunk)
                if prefix.readableBytes < ContentPattern.markerSize { prefix.writeImmutableBuffer(chunk) }
            }
            // Read the first bytes, then stop reading while the whole file is replaced.
            while digest.byteCount < 256 << 10, let chunk = try await iterator.next() { take(chunk) }
            let put = try await host.put(version: 1, size: size)
            #expect(put.status == 200, "PutFile while a reader is paused")
            while let chunk = try await iterator.next() { take(chunk) }
            let body = ReceivedBody(
                length: digest.byteCount, sha256: digest.finalize(), marker: ContentPattern.Marker.parse(prefix))
            let version = try host.registry.verify(body, isVersionOf: host.file.index).version
            #expect(version == 0, "the paused reader finishes the version it started")
            #expect(try await host.servedVersion() == 1, "a new reader gets the new version")
        } catch {
            await host.stop()
            throw error
        }
        await host.stop()
    }

    // MARK: - SQLite locked by another process

    @Test("SQLite locked by another process: a bounded wait, then 503 with Retry-After; nothing corrupted")
    func sqliteLockedByAnotherProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try await Host.start("sqlite", data: directory.url, size: 256 << 10)
        do {
            let holder = try WriteLockHolder(database: directory.url.appendingPathComponent("wopi.sqlite"))
            defer { holder.release() }
            try await holder.waitUntilHeld()
            let started = ContinuousClock.now
            let blocked = try await host.put(version: 1, size: 256 << 10)
            let waited = ContinuousClock.now - started
            #expect(blocked.status == 503, "PutFile while another process holds the write lock")
            #expect(blocked.header("Retry-After") != nil)
            #expect(blocked.header(WOPIHeader.serverError)?.contains("locked") == true)
            #expect(waited >= .seconds(5) && waited < .seconds(30), "the host waited a bounded time: \(waited)")
            // GetFile takes a lease on the version it streams (a write), so it waits and answers 503 the same way.
            let (read, _) = try await host.client.getFile(host.file, at: host.base)
            #expect(read.status == 503 && read.header("Retry-After") != nil, "GetFile while locked: \(read.status)")
            holder.release()
            #expect(try await host.servedVersion() == 0, "the content is what it was before the lock")

            let next = try await host.put(version: 2, size: 256 << 10)
            #expect(next.status == 200, "PutFile once the lock is released")
            #expect(try await host.servedVersion() == 2)
        } catch {
            await host.stop()
            throw error
        }
        await host.stop()
        try await Self.expectIntact(host.data)
    }

    /// `PRAGMA integrity_check` of the data directory's database is `ok`.
    static func expectIntact(_ data: URL) async throws {
        let database = try SQLiteDatabase(path: data.appendingPathComponent("wopi.sqlite").path)
        #expect(try await database.integrityCheck() == ["ok"])
        try database.close()
    }
}
