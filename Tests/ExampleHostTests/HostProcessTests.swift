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

        let token = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
        let (wopiSrc, accessToken) = (token.wopiSrc, token.accessToken)
        #expect(wopiSrc.hasPrefix(base + "/wopi/files/"))
        #expect(token.accessTokenTTL > Int64(Date().timeIntervalSince1970 * 1000))

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
        let ana = try await HostProcess.token(data: directory.url, user: "ana", file: "Work/plan.txt")
        #expect(try await HTTP.get("\(ana.wopiSrc)/contents?access_token=\(ana.accessToken)").text == "plan")
        // Ana's token does not open the demo user's file.
        #expect(try await HTTP.get("\(wopiSrc)?access_token=\(ana.accessToken)").status == 404)

        #expect(await host.stop(signal: SIGTERM) == 0, "graceful shutdown exits 0")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("server.json").path))
    }

    @Test("the opens answered just before SIGTERM are in the audit file once the host has stopped")
    func opensAreWrittenAtShutdown() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url)
        _ = try await host.waitUntilListening()
        let token = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
        let url = "\(token.wopiSrc)?access_token=\(token.accessToken)"
        // Opens are handed to the audit log without waiting (Docs/operations.md, "Audit trail").
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await HTTP.get(url).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 40))
        #expect(await host.stop(signal: SIGTERM) == 0)
        let lines = try String(contentsOf: directory.appending("audit.jsonl"), encoding: .utf8)
        #expect(lines.split(separator: "\n").filter { $0.contains(#""action":"open""#) }.count == 40)
    }

    @Test("without --demo, serve starts with no account at all and says how to add one")
    func noDemoAccountWithoutTheFlag() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url, demo: false)
        _ = try await host.waitUntilListening()
        #expect(host.printed.contains("No users yet"))
        #expect(!host.printed.contains("user: demo"))
        let users = try await HostProcess.run(["user", "list", "--data", directory.url.path])
        #expect(users.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "no user exists: \(users)")
        await #expect(throws: (any Error).self) {
            _ = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
        }
        #expect(await host.stop(signal: SIGTERM) == 0)
    }

    @Test("serve --tls-cert/--tls-key serves HTTPS with a self-signed certificate; every absolute URL says https")
    func servesHTTPSWithASelfSignedCertificate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cert = directory.appending("cert.pem").path
        let key = directory.appending("key.pem").path
        let openssl = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ])
        try #require(openssl.status == 0, "openssl (make test installs it): \(openssl.error)")
        let data = directory.appending("data")
        let host = try HostProcess(dataDirectory: data, extraArguments: ["--tls-cert", cert, "--tls-key", key])
        let base = try await host.waitUntilListening()
        #expect(base.hasPrefix("https://127.0.0.1:"))

        let token = try await HostProcess.token(data: data, file: "Notes.txt")
        let (wopiSrc, accessToken) = (token.wopiSrc, token.accessToken)
        #expect(wopiSrc.hasPrefix(base + "/wopi/files/"))

        func curl(_ arguments: String...) async throws -> ChildProcess.Result {
            try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "20"] + arguments)
        }
        let info = try await curl("--cacert", cert, "\(wopiSrc)?access_token=\(accessToken)")
        #expect(info.status == 0, "curl: \(info.error)")
        #expect(info.output.contains(#""BaseFileName":"Notes.txt""#))
        let challenge = try await curl("--cacert", cert, "-o", "/dev/null", "-D", "-", base + "/wopibootstrapper")
        #expect(challenge.output.hasPrefix("HTTP/1.1 401"))
        #expect(challenge.output.contains("authorization_uri=\"\(base)/oauth2/authorize\""), "\(challenge.output)")
        // A client that does not trust the certificate is refused (curl: 60, certificate problem).
        #expect(try await curl("\(wopiSrc)?access_token=\(accessToken)").status == 60)
        #expect(await host.stop(signal: SIGTERM) == 0)
    }
}
