import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIChunking
import WOPIModels
import WOPITestSupport

/// `kill -9` of `serve` on SQLite while 8 PutChunkedFiles run (the kill follows the first acknowledgement, so the
/// others are receiving frames, composing, or writing): after a restart every file is one whole version, the new
/// one wherever the client was answered 200.
@Suite("serve on SQLite: a host killed during PutChunkedFile", .serialized)
struct PutChunkedFileCrashTests {
    static let files = 8
    static let arguments = [
        "--storage", "sqlite", "--coauthoring", "--real-time-channel-url", "https://rtc.example.com/rtc",
        "--collaboration-service-url", "https://collab.example.com/ocs",
    ]

    /// Version `generation` of file `index`: a 3 MiB zip of 12 entries, entries 0…5 different in each generation.
    static func content(_ index: Int, generation: Int) -> [UInt8] {
        TestZip.make(
            (0..<12).map { entry in
                let seed = entry < 6 ? index &* 7 &+ generation &* 101 &+ entry : index &* 7 &+ entry
                return ("part\(entry).xml", pattern(seed: seed))
            })
    }

    /// 256 KiB of a pattern of `seed`, written through a pointer: a debug build's `map` over the range made these
    /// patterns most of the test's time.
    static func pattern(seed: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 256 * 1024) { buffer, count in
            for offset in 0..<buffer.count { buffer[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ seed) }
            count = buffer.count
        }
    }

    /// Both versions of every file, made once.
    static let versions = (0..<files).map { (old: content($0, generation: 0), new: content($0, generation: 1)) }

    /// The PutChunkedFile body that takes a file from `old` to `new` (only the chunks the host lacks).
    static func putBody(old: [UInt8], new: [UInt8]) throws -> ByteBuffer {
        let (chunks, _) = ChunkedTransferFrames.chunks(of: new)
        let known = Set(ChunkedTransferFrames.chunks(of: old).chunks.map(\.id))
        let signature = StreamSignature(
            streamID: StreamSignature.mainContent, chunkingScheme: .zip,
            chunkSignatures: chunks.map { ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.bytes.count)) })
        var sent: [ChunkedTransferFrames.Chunk] = []
        for chunk in chunks where !known.contains(chunk.id) && !sent.contains(chunk) { sent.append(chunk) }
        return try ChunkedTransferFrames.body(PutChunkedFileRequestMessage(signatures: [signature]), chunks: sent)
    }

    /// The URL of `endpoint` of the file `token` names, on the host at `base`.
    static func url(_ token: MintedToken, base: String, _ suffix: String = "") -> String {
        let path = URLComponents(string: token.wopiSrc)?.path ?? ""
        return base + path + suffix + "?access_token=" + token.accessToken
    }

    @Test("every file is a whole old or whole new version after a restart")
    func killDuringPutChunkedFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url, extraArguments: Self.arguments)
        var statuses: [Int: Int] = [:]
        do {
            let base = try await host.waitUntilListening()
            var requests: [(url: String, body: ByteBuffer, headers: [(String, String)])] = []
            for index in 0..<Self.files {
                let local = directory.url.appendingPathComponent("seed-\(index).zip")
                try Data(Self.versions[index].old).write(to: local)
                _ = try await HostProcess.run(
                    ["import", "--data", directory.url.path, "--user", "demo", local.path, "Crash/file-\(index).xlsx"])
                let token = try await HostProcess.token(data: directory.url, file: "Crash/file-\(index).xlsx")
                let lock = try await TestHTTP.send(
                    .POST, Self.url(token, base: base),
                    headers: [
                        ("X-WOPI-Override", "GET_COAUTH_LOCK"), ("X-WOPI-CoauthLockId", "crash-\(index)"),
                        ("X-WOPI-CoauthLockType", "Coauth"), ("X-WOPI-CoauthLockExpirationTimeout", "3600"),
                    ])
                try #require(lock.status == 200, "coauth lock \(index): \(lock.status)")
                let sequence = try await TestHTTP.send(
                    .POST, Self.url(token, base: base), headers: [("X-WOPI-Override", "GET_SEQUENCE_NUMBER")])
                let number = try #require(sequence.header("X-WOPI-SequenceNumber"))
                requests.append(
                    (
                        Self.url(token, base: base, "/contents"),
                        try Self.putBody(old: Self.versions[index].old, new: Self.versions[index].new),
                        [
                            ("X-WOPI-Override", "PUT_CHUNKED_FILE"), ("X-WOPI-SequenceNumber", number),
                            ("X-WOPI-CoauthLockId", "crash-\(index)"),
                        ]
                    ))
            }
            let fixed = requests
            statuses = await withTaskGroup(of: (Int, Int?).self) { group in
                for index in 0..<Self.files {
                    group.addTask {
                        let reply = try? await TestHTTP.send(
                            .POST, fixed[index].url, headers: fixed[index].headers, body: fixed[index].body)
                        return (index, reply?.status)
                    }
                }
                var statuses: [Int: Int] = [:]
                var killed = false
                for await (index, status) in group {
                    if let status { statuses[index] = status }
                    if status == 200, !killed {
                        killed = true
                        await host.stop(signal: SIGKILL)
                    }
                }
                return statuses
            }
        } catch {
            await host.stop(signal: SIGKILL)
            throw error
        }
        await host.stop(signal: SIGKILL)
        #expect(statuses.values.contains(200), "no PutChunkedFile was answered before the kill")

        let restarted = try HostProcess(dataDirectory: directory.url, extraArguments: Self.arguments)
        try await restarted.serving { base in
            for index in 0..<Self.files {
                let token = try await HostProcess.token(data: directory.url, file: "Crash/file-\(index).xlsx")
                let reply = try await TestHTTP.send(.GET, Self.url(token, base: base, "/contents"))
                #expect(reply.status == 200)
                let (old, new) = Self.versions[index]
                if statuses[index] == 200 {
                    #expect(reply.bytes == new, "file \(index) was acknowledged but is not the whole new version")
                } else {
                    #expect(reply.bytes == old || reply.bytes == new, "file \(index) is neither whole version")
                }
            }
        }
    }
}
