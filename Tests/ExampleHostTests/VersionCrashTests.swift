import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import WOPITestSupport

/// `kill -9` of `serve`, on SQLite and on fs, while PutFiles save new versions of four files and the versions view restores old
/// versions of four others: after a restart, every version each file lists reads back whole, as one of the contents
/// it was given, at its listed size, and each file's content is its newest version.
@Suite("serve on SQLite and fs: a host killed during saves and restores", .serialized)
struct VersionCrashTests {
    static let saved = 0..<4
    static let restored = 4..<8
    static let generations = 6

    /// Content `generation` of file `index`: 512 KiB of a pattern of both.
    static func content(_ index: Int, _ generation: Int) -> [UInt8] {
        let seed = index &* 1_000 &+ generation
        return [UInt8](unsafeUninitializedCapacity: 512 * 1024) { buffer, count in
            for offset in 0..<buffer.count { buffer[offset] = UInt8(truncatingIfNeeded: offset &* 131 &+ seed) }
            count = buffer.count
        }
    }

    static func name(_ index: Int) -> String { "Crash/file-\(index).docx" }

    /// A signed-in session cookie of the demo user on the host at `base`.
    static func session(_ base: String) async throws -> String {
        let form = try await HostSecurityTests.signInForm(base)
        let reply = try await HostSecurityTests.signIn(base, "demo", "demo", form: form)
        return String(try #require(HostSecurityTests.sessionCookie(reply)).prefix { $0 != ";" })
    }

    /// The versions `file` lists, newest first, through the versions view.
    static func versions(_ file: String, base: String, cookie: String) async throws -> [[String: Any]] {
        let reply = try await HTTP.get(base + "/versions/\(file)?format=json", headers: ["Cookie": cookie])
        try #require(reply.status == 200, "versions of \(file): \(reply.status)")
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [[String: Any]])
    }

    @Test(
        "every listed version reads back whole, and each file's content is its newest version",
        arguments: ["sqlite", "fs"])
    func killDuringSavesAndRestores(storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.path
        let host = try HostProcess(dataDirectory: directory.url, extraArguments: ["--storage", storage])
        var fileIDs: [Int: String] = [:]
        var answered = 0
        do {
            let base = try await host.waitUntilListening()
            for index in 0..<8 {
                // The restored files get three versions through the CLI beside the running host; the saved ones one.
                for generation in 0..<(Self.restored.contains(index) ? 3 : 1) {
                    let local = directory.url.appendingPathComponent("seed-\(index)-\(generation).docx")
                    try Data(Self.content(index, generation)).write(to: local)
                    _ = try await HostProcess.run(
                        ["import", "--data", data, "--user", "demo", "--overwrite", local.path, Self.name(index)])
                }
            }
            let cookie = try await Self.session(base)
            var tokens: [Int: MintedToken] = [:]
            var oldVersions: [Int: [String]] = [:]
            for index in 0..<8 {
                let token = try await HostProcess.token(data: directory.url, file: Self.name(index))
                tokens[index] = token
                let id = String(try #require(token.wopiSrc.split(separator: "/").last))
                fileIDs[index] = id
                oldVersions[index] = try await Self.versions(id, base: base, cookie: cookie).compactMap {
                    $0["id"] as? String
                }
            }
            for index in Self.saved {
                let token = try #require(tokens[index])
                let url = "\(token.wopiSrc)?access_token=\(token.accessToken)"
                let lock = try await HTTP.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "crash-\(index)"])
                try #require(lock.status == 200)
            }
            let (allTokens, allIDs, allOld) = (tokens, fileIDs, oldVersions)
            let count = Answered()
            answered = await withTaskGroup(of: Int.self) { group in
                for index in Self.saved {
                    group.addTask {
                        guard let token = allTokens[index] else { return 0 }
                        var done = 0
                        for generation in 1..<Self.generations {
                            let url = "\(token.wopiSrc)/contents?access_token=\(token.accessToken)"
                            guard
                                let reply = try? await TestHTTP.send(
                                    .POST, url,
                                    headers: [("X-WOPI-Override", "PUT"), ("X-WOPI-Lock", "crash-\(index)")],
                                    body: ByteBuffer(bytes: Self.content(index, generation))),
                                reply.status == 200
                            else { return done }
                            done += 1
                            count.add()
                        }
                        return done
                    }
                }
                for index in Self.restored {
                    group.addTask {
                        guard let id = allIDs[index], let old = allOld[index] else { return 0 }
                        var done = 0
                        for round in 0..<Self.generations {
                            let version = old[(round % (old.count - 1)) + 1]
                            guard
                                let reply = try? await HTTP.post(
                                    base + "/versions/\(id)",
                                    [
                                        "Cookie": cookie, "Origin": base,
                                        "Content-Type": "application/x-www-form-urlencoded",
                                    ], body: "action=restore&version=\(version)"),
                                reply.status == 303
                            else { return done }
                            done += 1
                            count.add()
                        }
                        return done
                    }
                }
                // The kill follows the eighth answered save or restore, while the others are in flight.
                group.addTask {
                    _ = try? await Polling.until(every: .milliseconds(5)) { count.total >= 8 }
                    await host.stop(signal: SIGKILL)
                    return 0
                }
                var total = 0
                for await done in group { total += done }
                return total
            }
        } catch {
            await host.stop(signal: SIGKILL)
            throw error
        }
        await host.stop(signal: SIGKILL)
        #expect(answered > 0, "nothing was saved or restored before the kill")

        let restarted = try HostProcess(dataDirectory: directory.url)
        try await restarted.serving { base in
            let cookie = try await Self.session(base)
            for index in 0..<8 {
                let id = try #require(fileIDs[index])
                let given = Set((0..<Self.generations).map { Self.content(index, $0) })
                let versions = try await Self.versions(id, base: base, cookie: cookie)
                #expect(!versions.isEmpty)
                var newest: [UInt8]?
                for version in versions {
                    let versionID = try #require(version["id"] as? String)
                    let reply = try await HTTP.get(
                        base + "/download/\(id)?version=\(versionID)", headers: ["Cookie": cookie])
                    #expect(reply.status == 200, "file \(index) version \(versionID): \(reply.status)")
                    #expect(given.contains(reply.bytes), "file \(index) version \(versionID) is not one it was given")
                    #expect(reply.bytes.count == version["size"] as? Int, "file \(index) version \(versionID)'s size")
                    newest = newest ?? reply.bytes
                }
                let current = try await HTTP.get(base + "/download/\(id)", headers: ["Cookie": cookie])
                #expect(current.bytes == newest, "file \(index)'s content is its newest version")
            }
        }
    }
}

/// The saves and restores answered so far, across the test's tasks.
private final class Answered: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var total: Int { count.withLock { $0 } }
}
