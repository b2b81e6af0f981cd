import Foundation
import Testing
import WOPITestSupport

/// The example host as a new user runs it: the real executable, real sockets, the CLI beside it.
@Suite(.serialized) struct HostProcessTests {
    @Test func tokenFromTheCLIWorksForTheWholeEditFlow() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url)
        let base = try await host.waitUntilListening()
        #expect(host.printed.contains("user: demo"), "an empty data directory is seeded")

        let json = try await HostProcess.run([
            "token", "--data", directory.url.path, "--user", "demo", "--file", "Welcome.docx",
        ])
        let token = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        let wopiSrc = try #require(token["wopiSrc"] as? String)
        let accessToken = try #require(token["accessToken"] as? String)
        #expect(wopiSrc.hasPrefix(base + "/wopi/files/"))
        #expect((token["accessTokenTTL"] as? Int64 ?? 0) > Int64(Date().timeIntervalSince1970 * 1000))

        let url = "\(wopiSrc)?access_token=\(accessToken)"
        let contents = "\(wopiSrc)/contents?access_token=\(accessToken)"
        #expect(try await HTTP.get(url).json()["BaseFileName"] as? String == "Welcome.docx")
        #expect(try await HTTP.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "cli"]).status == 200)
        #expect(
            try await HTTP.post(contents, ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "cli"], body: "edited").status
                == 200)
        #expect(try await HTTP.get(contents).text == "edited")
        #expect(try await HTTP.post(url, ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "cli"]).status == 200)

        // The CLI changes the data while the server runs, and the server sees it at once.
        _ = try await HostProcess.run(
            ["user", "add", "ana", "--data", directory.url.path, "--password-stdin"], input: "s3cret\n")
        let local = directory.url.appendingPathComponent("plan.txt")
        try Data("plan".utf8).write(to: local)
        _ = try await HostProcess.run([
            "import", "--data", directory.url.path, "--user", "ana", local.path, "Work/plan.txt",
        ])
        let anaJSON = try await HostProcess.run([
            "token", "--data", directory.url.path, "--user", "ana", "--file", "Work/plan.txt",
        ])
        let ana = try JSONSerialization.jsonObject(with: Data(anaJSON.utf8)) as? [String: Any] ?? [:]
        let anaURL =
            "\(try #require(ana["wopiSrc"] as? String))/contents?access_token=\(try #require(ana["accessToken"] as? String))"
        #expect(try await HTTP.get(anaURL).text == "plan")
        // Ana's token does not open the demo user's file.
        #expect(
            try await HTTP.get("\(wopiSrc)?access_token=\(try #require(ana["accessToken"] as? String))").status == 404)

        #expect(await host.stop(signal: SIGTERM) == 0, "graceful shutdown exits 0")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("server.json").path))
    }
}
