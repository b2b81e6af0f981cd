import Foundation
import SQLiteStorage
import Testing
import WOPIModels
import WOPITestSupport

/// SIGKILL of the example host (SQLite storage) while many PutFiles are in flight, at several moments.
///
/// After each kill the database passes `PRAGMA integrity_check`, and the restarted host serves every file as
/// exactly one complete version (the one before the round or one sent in it, never an older one once a save
/// was acknowledged), with CheckFileInfo's `Version` equal to GetFile's `X-WOPI-ItemVersion`, and every lock
/// granted and not released is still held.
@Suite(.serialized) struct CrashTests {
    static let seed: UInt64 = 0x00C0_FFEE
    static let fileCount = 8
    /// Files locked for the whole test (PutFiles go to these); file 6 is locked then released; file 7 never locked.
    static let lockedFiles = 0..<6
    static let releasedFile = 6
    static let putsPerRound = 48
    static let putsInFlight = 32
    static let putSizes = (64 * 1024)...(4 * 1024 * 1024)
    /// One round per range: once this many PutFiles of the round were acknowledged, the host is killed in the
    /// middle of the next body to pass half its size (``KillSwitch``).
    static let killMoments: [ClosedRange<Int>] = [1...3, 6...12, 16...24]

    /// What a test file is known to hold.
    struct Known {
        var version: Int
        var itemVersion: String
    }

    @Test func sigkillDuringConcurrentPutFilesKeepsFilesWholeAndLocksHeld() async throws {
        var random = SeededGenerator(seed: Self.seed)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let client = WOPIClient()
        let registry = VersionRegistry()
        var host = try HostProcess(dataDirectory: directory.url)
        try await client.use(killingOnFailure: { host }) {
            var base = try await host.waitUntilListening()
            let sizes = (0..<Self.fileCount).map { _ in Int.random(in: (16 * 1024)...(512 * 1024), using: &random) }
            let files = try await WOPIFile.importFiles(sizes: sizes, into: directory.url, registry: registry)

            var locks: [Int: String] = [:]
            for file in files where Self.lockedFiles.contains(file.index) || file.index == Self.releasedFile {
                let id = "crash-lock-\(file.index)"
                let reply = try await client.lockOperation(WOPIOverride.lock, file, lock: id, at: base)
                try #require(reply.status == 200, "Lock on file \(file.index)")
                locks[file.index] = id
            }
            let release = try await client.lockOperation(
                WOPIOverride.unlock, files[Self.releasedFile], lock: locks[Self.releasedFile], at: base)
            try #require(release.status == 200)
            locks[Self.releasedFile] = nil

            var known: [Int: Known] = [:]
            for file in files {
                known[file.index] = try await Self.verify(
                    file, at: base, allowed: [0], locks: locks, client: client, registry: registry)
            }

            for (round, moment) in Self.killMoments.enumerated() {
                let killAfter = Int.random(in: moment, using: &random)
                let plan = (0..<Self.putsPerRound).map { number in
                    ContentPattern(
                        file: files[number % Self.lockedFiles.count].index, version: (round + 1) * 1000 + number,
                        size: Int.random(in: Self.putSizes, using: &random))
                }
                let outcome = try await Self.putUntilKilled(
                    plan, on: files, locks: locks, host: host, killAfter: killAfter, client: client,
                    registry: registry, base: base)
                print(
                    "crash round \(round): SIGKILL mid-body after \(killAfter) acknowledged PutFiles; "
                        + "\(outcome.acknowledged.count) acknowledged, \(outcome.started.count) started, "
                        + "\(outcome.interrupted) cut off or stopped by the kill")
                #expect(outcome.rejections.isEmpty, "PutFiles answered other than 200: \(outcome.rejections)")
                #expect(outcome.killedMidBody, "round \(round): the kill came in the middle of a body")
                #expect(outcome.interrupted > 0, "round \(round): the kill cut PutFiles off in the middle")

                let database = try SQLiteDatabase(path: directory.url.appendingPathComponent("wopi.sqlite").path)
                #expect(try await database.integrityCheck() == ["ok"], "integrity after SIGKILL in round \(round)")
                try database.close()

                host = try HostProcess(dataDirectory: directory.url)
                base = try await host.waitUntilListening()
                for file in files {
                    guard let before = known[file.index] else { continue }
                    let sent = outcome.started.filter { $0.file == file.index }.map(\.version)
                    let acknowledged = outcome.acknowledged.filter { $0.key.file == file.index }
                    // Once a save was acknowledged, the version from before the round may not come back.
                    let allowed = Set(sent + (acknowledged.isEmpty ? [before.version] : []))
                    let now = try await Self.verify(
                        file, at: base, allowed: allowed, locks: locks, client: client, registry: registry)
                    if let itemVersion = acknowledged.first(where: { $0.key.version == now.version })?.value {
                        #expect(now.itemVersion == itemVersion, "file \(file.index): the acknowledged ItemVersion")
                    }
                    known[file.index] = now
                }
            }
            #expect(await host.stop(signal: SIGTERM) == 0, "graceful shutdown exits 0")
            let database = try SQLiteDatabase(path: directory.url.appendingPathComponent("wopi.sqlite").path)
            #expect(try await database.integrityCheck() == ["ok"])
            try database.close()
        }
    }

    /// What the PutFiles of one round did before and after the kill.
    struct RoundOutcome {
        var started: [ContentPattern.Marker] = []
        var acknowledged: [ContentPattern.Marker: String] = [:]
        var rejections: [String] = []
        var interrupted = 0
        /// Whether the host was killed in the middle of a body (``KillSwitch``), rather than after the round.
        var killedMidBody = false
    }

    /// Runs `plan` with ``putsInFlight`` PutFiles at a time, and SIGKILLs the host in the middle of a body once
    /// `killAfter` were answered 200 (at the end of the round, if no body was left to cut).
    static func putUntilKilled(
        _ plan: [ContentPattern], on files: [WOPIFile], locks: [Int: String], host: HostProcess, killAfter: Int,
        client: WOPIClient, registry: VersionRegistry, base: String
    ) async throws -> RoundOutcome {
        let killSwitch = KillSwitch(pid: host.pid, threshold: killAfter)
        var outcome = RoundOutcome()
        enum Result {
            case acknowledged(ContentPattern.Marker, String)
            case rejected(String)
            case interrupted
        }
        await withTaskGroup(of: Result.self) { group in
            var pending = plan[...]
            func startNext() {
                guard !killSwitch.fired, let content = pending.popFirst() else { return }
                outcome.started.append(content.marker)
                group.addTask {
                    registry.register(content)
                    let file = files[content.file]
                    do {
                        let body = content.stream { offset in killSwitch.sending(at: offset, of: content.size) }
                        let reply = try await client.putFile(
                            file, lock: locks[file.index], body: body, length: content.size, at: base)
                        guard reply.status == 200, let itemVersion = reply.header(WOPIHeader.itemVersion) else {
                            return .rejected("file \(file.index) v\(content.version): \(reply.status)")
                        }
                        killSwitch.acknowledged()
                        return .acknowledged(content.marker, itemVersion)
                    } catch {
                        return .interrupted
                    }
                }
            }
            for _ in 0..<putsInFlight { startNext() }
            for await result in group {
                switch result {
                case .acknowledged(let marker, let itemVersion): outcome.acknowledged[marker] = itemVersion
                case .rejected(let reason): outcome.rejections.append(reason)
                case .interrupted: outcome.interrupted += 1
                }
                // The HTTP client keeps retrying to connect for a PutFile still waiting for a connection, until
                // its timeout: once the host is dead, stop them.
                if killSwitch.fired { group.cancelAll() }
                startNext()
            }
        }
        outcome.killedMidBody = killSwitch.fired
        await host.stop(signal: SIGKILL)
        return outcome
    }

    /// Reads `file` back and checks it is one complete version in `allowed`, that CheckFileInfo agrees with
    /// GetFile, and that its lock is `locks[file.index]` (or none).
    static func verify(
        _ file: WOPIFile, at base: String, allowed: Set<Int>, locks: [Int: String], client: WOPIClient,
        registry: VersionRegistry
    ) async throws -> Known {
        let (reply, body) = try await client.getFile(file, at: base)
        try #require(reply.status == 200, "GetFile of file \(file.index)")
        let marker = try registry.verify(body, isVersionOf: file.index)
        #expect(allowed.contains(marker.version), "file \(file.index) holds v\(marker.version), not one of \(allowed)")
        let itemVersion = try #require(reply.header(WOPIHeader.itemVersion))
        let (infoReply, info) = try await client.checkFileInfo(file, at: base)
        #expect(infoReply.status == 200)
        #expect(info?.version == itemVersion, "file \(file.index): CheckFileInfo Version = X-WOPI-ItemVersion")
        #expect(info?.size == body.length)
        let lock = try await client.lockOperation(WOPIOverride.getLock, file, lock: nil, at: base)
        #expect(lock.status == 200)
        #expect(lock.header(WOPIHeader.lock) == (locks[file.index] ?? ""), "file \(file.index): lock kept")
        return Known(version: marker.version, itemVersion: itemVersion)
    }
}
