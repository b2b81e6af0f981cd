import Foundation
import Testing
import WOPITestSupport

/// `wopi-host retention`: the data directory's version retention, which every command that saves reads.
@Suite struct RetentionCommandTests {
    static func versions(_ data: String) async throws -> Int {
        let json = try await HostProcess.run(["versions", "--data", data, "--user", "alice", "Plan.docx", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any]).count
    }

    @Test("prints the standard retention, keeps the newest N once set, and every version again with --keep-all")
    func retentionIsTheDirectorysSetting() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.path
        let standard = try await HostProcess.run(["retention", "--data", data])
        #expect(standard.contains("Keeps the newest 50, for 30 days") && standard.contains("within 600 s"))
        _ = try await HostProcess.run(["user", "add", "alice", "--data", data, "--password-stdin"], input: "pw\n")
        let local = directory.url.appendingPathComponent("plan.docx")
        func save(_ text: String) async throws {
            try Data(text.utf8).write(to: local)
            _ = try await HostProcess.run(
                ["import", "--data", data, "--user", "alice", "--overwrite", local.path, "Plan.docx"])
        }

        let set = try await HostProcess.run(["retention", "--data", data, "--keep-last", "2", "--forever"])
        #expect(set.contains("Now keeps the newest 2, with no age limit"))
        for round in 1...4 { try await save("version \(round)") }
        #expect(try await Self.versions(data) == 2, "the newest two")

        _ = try await HostProcess.run(["retention", "--data", data, "--keep-all"])
        for round in 5...7 { try await save("version \(round)") }
        #expect(try await Self.versions(data) == 5, "the two kept before, and three more")
        let settings = try String(contentsOf: directory.url.appendingPathComponent("host.json"), encoding: .utf8)
        #expect(settings.contains("\"versions\""), "the setting lives in host.json: \(settings)")

        await #expect(throws: HostProcessError.self) {
            try await HostProcess.run(["retention", "--data", data, "--keep-last", "0"])
        }
    }
}
