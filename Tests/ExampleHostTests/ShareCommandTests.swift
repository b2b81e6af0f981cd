import Foundation
import Testing
import WOPITestSupport

/// Sharing as the README tells a new user to do it: the real `wopi-host serve` and its commands, on each storage.
@Suite(.serialized) struct ShareCommandTests {
    @Test(
        "share, shares, token --view, 'Shared with me/…' and unshare, against a running serve",
        arguments: ["sqlite", "fs"])
    func sharingFromTheCommandLine(_ storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url, demo: false, extraArguments: ["--storage", storage])
        try await host.serving { _ in try await share(in: directory) }
    }

    /// The README's sharing steps, while the host serves `directory`.
    func share(in directory: TemporaryDirectory) async throws {
        let data = directory.url.path
        func wopiHost(_ arguments: [String], input: String? = nil) async throws -> String {
            try await HostProcess.run(arguments + ["--data", data], input: input)
        }
        for name in ["alice", "bob", "carol", "dave"] {
            _ = try await wopiHost(["user", "add", name, "--password-stdin"], input: "pw-\(name)\n")
        }
        let local = directory.url.appendingPathComponent("upload.txt")
        try Data("v1".utf8).write(to: local)
        _ = try await wopiHost(["import", "--user", "alice", local.path, "Projects/Plan.docx"])
        _ = try await wopiHost(["import", "--user", "alice", local.path, "Budget.xlsx"])

        #expect(try await wopiHost(["share", "--user", "alice", "Projects", "--with", "bob"]).contains("(edit)"))
        #expect(
            try await wopiHost(["share", "--user", "alice", "Budget.xlsx", "--with", "carol", "--view"])
                .contains("(view)"))
        let aliceShares = try await wopiHost(["shares", "--user", "alice"])
        #expect(
            aliceShares.contains("Projects  with bob  edit") && aliceShares.contains("Budget.xlsx  with carol  view"))
        let carolShares = try await wopiHost(["shares", "--user", "carol"])
        #expect(carolShares.contains("Shared with me/Budget.xlsx  by alice  view"))

        // Bob edits the file shared with him by its "Shared with me" path.
        let bob = try await HostProcess.token(
            data: directory.url, user: "bob", file: "Shared with me/Projects/Plan.docx")
        let bobURL = "\(bob.wopiSrc)?access_token=\(bob.accessToken)"
        #expect(try await HTTP.get(bobURL).json()["UserCanWrite"] as? Bool == true)
        #expect(try await HTTP.post(bobURL, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "b"]).status == 200)
        let bobPut = try await HTTP.post(
            "\(bob.wopiSrc)/contents?access_token=\(bob.accessToken)", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "b"],
            body: "bob's")
        #expect(bobPut.status == 200)

        // Carol may only view; so may Alice's own --view token.
        let carol = try await HostProcess.token(data: directory.url, user: "carol", file: "Shared with me/Budget.xlsx")
        let carolURL = "\(carol.wopiSrc)?access_token=\(carol.accessToken)"
        #expect(try await HTTP.get(carolURL).json()["UserCanWrite"] as? Bool == false)
        #expect(try await HTTP.post(carolURL, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "c"]).status == 401)
        let aliceView = try await HostProcess.token(data: directory.url, user: "alice", file: "Budget.xlsx", view: true)
        let aliceViewURL = "\(aliceView.wopiSrc)?access_token=\(aliceView.accessToken)"
        #expect(try await HTTP.get(aliceViewURL).json()["UserCanWrite"] as? Bool == false)
        let alice = try await HostProcess.token(data: directory.url, user: "alice", file: "Projects/Plan.docx")
        #expect(try await HTTP.get("\(alice.wopiSrc)/contents?access_token=\(alice.accessToken)").text == "bob's")

        // Dave has nothing shared; a token for Alice's file cannot be minted for him.
        await #expect(throws: (any Error).self) {
            _ = try await HostProcess.token(data: directory.url, user: "dave", file: "Shared with me/Budget.xlsx")
        }

        // Roles: Dave comments. Without the editor's proof keys (no discovery) his token only reads.
        #expect(
            try await wopiHost(["share", "--user", "alice", "Budget.xlsx", "--with", "dave", "--role", "commenter"])
                .contains("(comment)"))
        #expect(
            try await wopiHost(["shares", "--user", "dave"]).contains("Shared with me/Budget.xlsx  by alice  comment"))
        let daveToken = try await HostProcess.token(
            data: directory.url, user: "dave", file: "Shared with me/Budget.xlsx")
        let daveInfo = try await HTTP.get("\(daveToken.wopiSrc)?access_token=\(daveToken.accessToken)").json()
        #expect(daveInfo["UserCanWrite"] as? Bool == false && daveInfo["UserCanOnlyComment"] == nil)
        let davePut = try await HTTP.post(
            "\(daveToken.wopiSrc)/contents?access_token=\(daveToken.accessToken)", ["X-WOPI-Override": "PUT"],
            body: "dave's")
        #expect(davePut.status == 401, "a commenter's PutFile is refused outside the editor")
        for bad in [["--role", "owner"], ["--role", "viewer", "--view"]] {
            await #expect(throws: (any Error).self, "\(bad)") {
                _ = try await wopiHost(["share", "--user", "alice", "Budget.xlsx", "--with", "dave"] + bad)
            }
        }

        // The owner gets a share link through the running host.
        let link = try await HTTP.post(
            "\(alice.wopiSrc)?access_token=\(alice.accessToken)",
            ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": "ReadOnly"])
        #expect(link.status == 200)
        #expect(try (link.json()["ShareUrl"] as? String)?.contains("/share/") == true)

        // Unsharing takes effect at once for the token Bob already holds.
        #expect(try await wopiHost(["unshare", "--user", "alice", "Projects", "--with", "bob"]).contains("no longer"))
        #expect(try await HTTP.get(bobURL).status == 404)
        #expect(try await wopiHost(["shares", "--user", "bob"]).contains("Shared with bob: nothing"))
    }
}
