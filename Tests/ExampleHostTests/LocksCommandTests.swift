import Foundation
import Testing
import WOPITestSupport

/// The operator's view of locks: `wopi-host locks [--json]` and `wopi-host locks --break FILE`, run for real
/// against the data of a running `serve`, on each storage.
@Suite(.serialized) struct LocksCommandTests {
    @Test("a lock taken over WOPI is listed, and --break frees the file and is audited")
    func listAndBreak() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url, extraArguments: ["--storage", "sqlite"])
        try await host.serving { _ in
            let data = directory.url.path
            func wopiHost(_ arguments: [String]) async throws -> String {
                try await HostProcess.run(arguments + ["--data", data])
            }
            let local = directory.url.appendingPathComponent("plan.docx")
            try Data("v1".utf8).write(to: local)
            _ = try await wopiHost(["import", "--user", "demo", local.path, "Plan.docx"])
            let token = try await HostProcess.token(data: directory.url, file: "Plan.docx")
            let url = "\(token.wopiSrc)?access_token=\(token.accessToken)"
            let fileID = try #require(token.wopiSrc.split(separator: "/").last.map(String.init))

            #expect(try await HTTP.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "left-behind"]).status == 200)
            let listed = try await wopiHost(["locks", "--json"])
            let rows = try #require(JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
            let row = try #require(rows.first { $0["file"] as? String == fileID }, "the lock is listed: \(listed)")
            #expect(row["kind"] as? String == "WOPI")
            #expect(row["id"] as? String == "left-behind")
            #expect(row["holder"] as? String != nil)
            #expect(row["expiresAt"] as? String != nil)
            #expect(
                row["owner"] as? String == "demo" && row["path"] as? String == "Plan.docx", "named for the operator")
            let table = try await wopiHost(["locks"])
            #expect(table.contains("\(fileID)\tWOPI\tleft-behind"))
            #expect(table.contains("\tdemo\tPlan.docx\n"), "the table ends each row with the owner and the path")

            // Another session cannot lock the file until the operator breaks the lock.
            let refused = try await HTTP.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "new-session"])
            #expect(refused.status == 409)
            #expect(try await wopiHost(["locks", "--break", fileID]).contains("broke 1 lock"))
            #expect(try await HTTP.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "new-session"]).status == 200)
            let after = try await wopiHost(["locks", "--json"])
            #expect(after.contains("new-session") && !after.contains("left-behind"))
            let breaks = try await wopiHost(["audit", "--json"]).split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["action"] as? String == "lock-break" }
            #expect(breaks.count == 1, "the break is audited once")
            #expect(breaks.first?["itemID"] as? String == fileID)
            #expect(breaks.first?["details"] as? [String: String] == ["locks": "1"])
        }
    }

    @Test("on the fs storage, whose locks live in the serving process, the command says so")
    func fsStorageExplains() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url, extraArguments: ["--storage", "fs"])
        try await host.serving { _ in
            let error = await #expect(throws: HostProcessError.self) {
                try await HostProcess.run(["locks", "--data", directory.url.path])
            }
            #expect(error?.description.contains("memory of the serving process") == true)
        }
    }
}
