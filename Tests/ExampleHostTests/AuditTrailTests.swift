import Foundation
import Testing
import WOPITestSupport

/// The audit trail of `wopi-host serve` (Docs/operations.md): a scripted session's records in order, read back with
/// `wopi-host audit`; and no secret the session used (access token, OAuth code and tokens, passwords, the client
/// secret) in the audit trail, the metrics, the host's log at its most verbose or the spans it exported over OTLP.
@Suite struct AuditTrailTests {
    @Test("the scripted session's records, in order, and no secret in records, metrics, logs or traces")
    func sessionIsAuditedWithoutSecrets() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await OTLPReceiver.run { receiver, endpoint in
            let host = try HostProcess(
                executable: HostProcess.executable,
                arguments: [
                    "serve", "--demo", "--data", directory.url.path, "--port", "0", "--log-level", "trace",
                    "--metrics-path", "/metrics",
                ],
                dataDirectory: directory.url,
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
                    "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20\(Self.collectorToken)",
                ])
            let secrets = try await Self.session(host, directory: directory)
            // The host sent its spans when it stopped (the exporter's graceful shutdown).
            let names = Set(try receiver.spans().map(\.name))
            #expect(
                names.isSuperset(of: ["oauth.authorize", "password.hash", "oauth.token", "CheckFileInfo", "PutFile"]))
            let exported = receiver.payloads.map { String(decoding: $0, as: UTF8.self) }.joined()
            for secret in secrets {
                #expect(!exported.contains(secret), "the exported spans hold a secret of the session")
            }
        }
    }

    /// The collector credential of `OTEL_EXPORTER_OTLP_HEADERS`: swift-otel's diagnostics must not print it.
    static let collectorToken = "otel-collector-\(UInt64.random(in: 0...UInt64.max))"

    /// Runs the scripted session on `host` and checks its audit trail, metrics and log; returns its secrets.
    private static func session(_ host: HostProcess, directory: TemporaryDirectory) async throws -> [String] {
        try await host.serving { url in
            let office = try OfficeSignIn(dataFolder: directory.url)
            let wrongPassword = "wrong-password-\(UInt32.random(in: 0...UInt32.max))"
            #expect(try await office.signIn(at: url, password: wrongPassword).status != 302)
            let code = try await office.code(at: url)
            let tokens = try OfficeSignIn.fields(try await office.redeem(code, at: url))
            let oauthToken = try #require(tokens["access_token"])
            let refreshToken = try #require(tokens["refresh_token"])

            let minted = try await HostProcess.token(data: directory.url, file: "Notes.txt")
            let file = "\(minted.wopiSrc)?access_token=\(minted.accessToken)"
            let contents = "\(minted.wopiSrc)/contents?access_token=\(minted.accessToken)"
            #expect(try await HTTP.get(file).status == 200)
            #expect(try await HTTP.post(file, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L1"]).status == 200)
            let save = try await HTTP.post(
                contents,
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": "L1", "X-WOPI-Editors": "demo",
                    "X-COOL-WOPI-IsAutosave": "true", "X-COOL-WOPI-IsExitSave": "false",
                ], body: "saved")
            #expect(save.status == 200)
            #expect(try await HTTP.post(file, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L2"]).status == 409)

            let lines = try await HostProcess.run(["audit", "--data", directory.url.path, "--json"])
            let events = lines.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let actions = events.compactMap { $0["action"] as? String }
            #expect(
                actions == [
                    "sign-in-failed", "sign-in", "sign-in", "token-minted", "token-minted", "open", "save",
                    "lock-conflict",
                ], "the audit trail: \(lines)")
            #expect(
                events.compactMap { $0["userID"] as? String }.prefix(4) == ["demo", "demo", "client:office", "demo"],
                "the user's sign-ins, then Office's client authentication at the token endpoint")
            let failed = try #require(events.first)
            #expect(failed["address"] as? String == "127.0.0.1" && failed["userID"] as? String == "demo")
            let saved = try #require(events.first { $0["action"] as? String == "save" })
            #expect(
                saved["details"] as? [String: String]
                    == ["editors": "demo", "autosave": "true", "exitSave": "false", "size": "5"])
            let byFile = try await HostProcess.run([
                "audit", "--data", directory.url.path, "--user", "demo", "--file", "Notes.txt",
            ])
            #expect(
                byFile.split(separator: "\n").map { $0.split(separator: " ")[1] } == [
                    "token-minted", "open", "save", "lock-conflict",
                ])
            let cliMint = try #require(events.filter { $0["action"] as? String == "token-minted" }.last)
            #expect(
                cliMint["details"] as? [String: String] == [
                    "kind": "wopi", "via": "wopi-host token", "permission": "edit",
                ])

            let metrics = try await HTTP.get(url + "/metrics").text
            let auditFile = try String(contentsOf: directory.appending("audit.jsonl"), encoding: .utf8)
            let secrets = [
                minted.accessToken, code, oauthToken, refreshToken, wrongPassword, office.secret,
                "password=demo", Self.collectorToken,
            ]
            for (place, text) in [("audit trail", auditFile + lines), ("metrics", metrics), ("log", host.printed)] {
                for secret in secrets {
                    #expect(!text.contains(secret), "the \(place) holds a secret of the session")
                }
            }
            #expect(host.printed.contains("trace") || host.printed.contains("debug"), "the log was verbose")
            return secrets
        }
    }
}
