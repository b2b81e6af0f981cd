import Foundation
import NIOCore
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// A real Prometheus (Debian's) scrapes `wopi-host serve --metrics-listen` while a scripted session runs: open,
/// lock, save, a conflicting lock and a wrong password. Prometheus's API then holds each counter at the session's
/// value (Docs/operations.md).
@Suite struct PrometheusScrapeTests {
    @Test("Prometheus scrapes the example host and finds each counter of a scripted session")
    func prometheusFindsTheSession() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let metricsPort = try LoopbackPort.free()
        let host = try HostProcess(
            dataDirectory: directory.url, extraArguments: ["--metrics-listen", "127.0.0.1:\(metricsPort)"])
        try await host.serving { url in
            let prometheus = try await PrometheusServer.start(scraping: "127.0.0.1:\(metricsPort)")
            do {
                try await Self.session(host: url, data: directory.url, prometheus: prometheus)
            } catch {
                await prometheus.stop()
                throw error
            }
            await prometheus.stop()
        }
    }

    static func session(host url: String, data: URL, prometheus: PrometheusServer) async throws {
        let minted = try await HostProcess.token(data: data, file: "Notes.txt")
        let file = "\(minted.wopiSrc)?access_token=\(minted.accessToken)"
        let contents = "\(minted.wopiSrc)/contents?access_token=\(minted.accessToken)"
        #expect(try await HTTP.get(file).status == 200)  // open
        #expect(try await HTTP.post(file, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "session-1"]).status == 200)
        let save = try await HTTP.post(
            contents, ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "session-1"], body: "saved by the session")
        #expect(save.status == 200)
        #expect(try await HTTP.post(file, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "session-2"]).status == 409)
        let signIn = try await OfficeSignIn(dataFolder: data).signIn(at: url, password: "not the password")
        #expect(signIn.status != 302, "a wrong password does not sign in")

        let expected: [(String, Double)] = [
            (#"wopi_requests_total{operation="CheckFileInfo",status="200"}"#, 1),
            (#"wopi_requests_total{operation="Lock",status="200"}"#, 1),
            (#"wopi_requests_total{operation="PutFile",status="200"}"#, 1),
            (#"wopi_requests_total{operation="Lock",status="409"}"#, 1),
            ("wopi_lock_conflicts_total", 1),
            ("wopi_putfile_bytes_total", Double("saved by the session".utf8.count)),
            (#"wopi_signin_attempts_total{kind="account",result="failure"}"#, 1),
            (#"wopi_request_duration_seconds_count{operation="CheckFileInfo"}"#, 1),
        ]
        for (query, value) in expected {
            var seen: Double?
            let found = try await Polling.until {
                seen = try await prometheus.value(query)
                return seen == value
            }
            #expect(found, "\(query) is \(seen.map { "\($0)" } ?? "absent") in Prometheus, not \(value)")
        }
        #expect(try await prometheus.targetIsUp())
        #expect(try await prometheus.value(#"wopi_signin_attempts_total{result="success"}"#) == nil)
    }
}
