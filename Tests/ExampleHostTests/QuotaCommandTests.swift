import Foundation
import NIOHTTP1
import Testing
import WOPITestSupport

/// `wopi-host quota`: each user's storage quota, which `serve` and every command that saves read; a save past it
/// is refused with 413 and what to do, on the command line and over WOPI.
@Suite(.serialized) struct QuotaCommandTests {
    /// `count` bytes that share no content-defined chunk with those of another seed.
    static func noise(_ seed: UInt64, _ count: Int) -> Data {
        var state = seed
        var bytes = Data(capacity: count)
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            withUnsafeBytes(of: state ^ (state >> 29)) { bytes.append(contentsOf: $0) }
        }
        return bytes.prefix(count)
    }

    @Test(
        "no quota by default; a save past the quota is refused on the command line and with 413 over WOPI",
        arguments: ["sqlite", "fs"])
    func aSavePastTheQuotaIsRefused(storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.path
        let none = try await HostProcess.run(["quota", "--data", data, "--storage", storage])
        #expect(none.contains("There is no storage quota."))
        _ = try await HostProcess.run(["user", "add", "alice", "--data", data, "--password-stdin"], input: "pw\n")
        let local = directory.url.appendingPathComponent("upload.bin")
        func save(_ bytes: Data) async throws {
            try bytes.write(to: local)
            _ = try await HostProcess.run(
                ["import", "--data", data, "--user", "alice", "--overwrite", local.path, "Data.bin"])
        }
        try await save(Self.noise(1, 300_000))
        let set = try await HostProcess.run(["quota", "--data", data, "--mib", "1"])
        #expect(set.contains("Now each user's files may take 1048576 bytes."))
        try await save(Self.noise(2, 300_000))
        let used = try await HostProcess.run(["quota", "--data", data, "--user", "alice"])
        #expect(used.contains("alice's files take 600000 bytes"), "both versions count: \(used)")
        let refused = await #expect(throws: HostProcessError.self) { try await save(Self.noise(3, 500_000)) }
        #expect(refused?.description.contains("quota") == true, "\(refused?.description ?? "")")

        try await HostProcess(dataDirectory: directory.url, demo: false).serving { _ in
            let token = try await HostProcess.token(data: directory.url, user: "alice", file: "Data.bin")
            let file = "\(token.wopiSrc)?access_token=\(token.accessToken)"
            let contents = "\(token.wopiSrc)/contents?access_token=\(token.accessToken)"
            #expect(try await HTTP.post(file, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "q"]).status == 200)
            let tooLarge = try await HTTP.post(
                contents, ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "q"], body: String(repeating: "x", count: 500_000))
            #expect(tooLarge.status == 413)
            let reason = tooLarge.headers.first(name: "X-WOPI-ServerError") ?? ""
            #expect(reason.contains("quota") && reason.contains("Delete files or earlier versions"), "\(reason)")
            let small = try await HTTP.post(contents, ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "q"], body: "small")
            #expect(small.status == 200)
        }
        _ = try await HostProcess.run(["quota", "--data", data, "--none"])
        try await save(Self.noise(3, 500_000))
    }
}
