import Foundation
import Synchronization
import Testing
import WOPIChunking
import WOPITestSupport

/// `wopi put` killed with SIGKILL in the middle of an incremental upload (PutChunkedFile) to `wopi-host serve
/// --coauthoring`: the host keeps the whole old version, the chunk cache holds only whole chunks, and a rerun
/// finishes the upload. The kill is triggered by the upload's bytes reaching a point at the socket (a
/// ``CountingProxy`` between the client and the host), not by time.
@Suite struct UploadKillTests {
    @Test("a client killed mid-upload leaves the host's file whole and its chunk cache consistent; a rerun succeeds")
    func killedMidUpload() async throws {
        try await ProxiedCLIHost.with(extraArguments: HostProcess.coauthoringArguments) { stack in
            try await Self.killAndRerun(stack)
        }
    }

    static func killAndRerun(_ stack: ProxiedCLIHost) async throws {
        let (directory, proxy, environment) = (stack.directory, stack.proxy, stack.environment)
        func wopi(_ arguments: String...) async throws -> WopiProcess.Result {
            try await stack.wopi(arguments)
        }

        let old = directory.appending("old.pptx")
        let new = directory.appending("new.pptx")
        try TestZip.write(old.path, text: "<p>old</p>", media: 4, seed: 1)
        try TestZip.write(new.path, text: "<p>new</p>", media: 24, seed: 2)
        try #require(try await wopi("put", old.path, "Deck.pptx").status == 0)
        // A lock kept in the configuration, so the rerun after the kill holds it too.
        try #require(try await wopi("lock", "Deck.pptx").status == 0)

        let put = Process()
        put.executableURL = WopiProcess.executable
        put.arguments = ["put", new.path, "Deck.pptx"]
        put.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        put.standardOutput = FileHandle.nullDevice
        put.standardError = FileHandle.nullDevice
        let killSwitch = KillSwitch()
        let before = proxy.counts
        let newSize = Int64(try Data(contentsOf: new).count)
        // Six MiB into the upload (the 24 MiB of new media are all new chunks), the client dies.
        proxy.onSent(atLeast: before.sent + 6 << 20) { killSwitch.fire(sent: proxy.counts.since(before).sent) }
        try put.run()
        killSwitch.arm(put.processIdentifier)
        ChildProcesses.register(put.processIdentifier)
        defer { ChildProcesses.unregister(put.processIdentifier) }
        try #require(try await Polling.until(within: .seconds(120)) { !put.isRunning })
        #expect(put.terminationReason == .uncaughtSignal && put.terminationStatus == SIGKILL)
        let sentBeforeKill = try #require(killSwitch.sentAtKill, "the kill was triggered by the upload's bytes")
        #expect(sentBeforeKill < newSize, "killed mid-upload: \(sentBeforeKill) of \(newSize) bytes sent")

        // The host serves the whole old version (read by a client with a cache of its own).
        let served = directory.appending("served.pptx")
        let get = try await stack.wopi(["get", "Deck.pptx", served.path], cache: "other")
        try #require(get.status == 0, "\(get.error)")
        #expect(try Data(contentsOf: served) == Data(contentsOf: old))

        // Every chunk the killed client's cache holds hashes to its ID.
        let chunks = try Self.cachedChunks(under: directory.appending("cache/wopi/chunks"))
        #expect(!chunks.isEmpty)
        for (name, bytes) in chunks {
            let id = ChunkID(
                base64: name.replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "-", with: "+"))
            #expect(id != nil && SpookyHash.hash(bytes) == id, "cache entry \(name) holds other bytes")
        }

        // A rerun uploads the new version whole and correct.
        let rerun = try await wopi("put", new.path, "Deck.pptx")
        #expect(rerun.status == 0, "\(rerun.error)")
        #expect(try await wopi("get", "Deck.pptx", served.path).status == 0)
        #expect(try Data(contentsOf: served) == Data(contentsOf: new))
        #expect(try await wopi("unlock", "Deck.pptx").status == 0)
    }

    /// The chunk files of every place's cache under `root` (`PLACE/chunks/XX/NAME`), by name.
    static func cachedChunks(under root: URL) throws -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        for place in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            let chunks = root.appendingPathComponent(place).appendingPathComponent("chunks")
            for relative in FileManager.default.subpaths(atPath: chunks.path) ?? [] where relative.contains("/") {
                let bytes = try Data(contentsOf: chunks.appendingPathComponent(relative))
                result.append((String(relative.split(separator: "/").last ?? ""), Array(bytes)))
            }
        }
        return result
    }
}

/// Kills the process it is armed with when fired, remembering how far the upload had got.
private final class KillSwitch: Sendable {
    private let state = Mutex<(pid: Int32, sent: Int64?)>((0, nil))

    func arm(_ pid: Int32) {
        state.withLock { $0.pid = pid }
    }

    func fire(sent: Int64) {
        let pid = state.withLock { state in
            state.sent = sent
            return state.pid
        }
        if pid > 0 { kill(pid, SIGKILL) }
    }

    var sentAtKill: Int64? { state.withLock { $0.sent } }
}
