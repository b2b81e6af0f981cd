import Foundation
import Hummingbird
import Logging
import Testing
import WOPIDeployment
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport

/// The deployment's operator endpoints on a real socket: `/healthz`, `/readyz` and `/metrics` take no token and give
/// nothing away (Docs/operations.md).
@Suite struct DeploymentProbeTests {
    /// Runs `body` with the base URL of a SQLite deployment of `configuration`, with `extraChecks` besides the
    /// stores' own readiness checks.
    static func serve(
        _ configuration: WOPIDeployment.Configuration = .init(), extraChecks: [ReadinessCheck] = [],
        _ body: (WOPIDeployment, String) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var stores = try DeploymentStores.sqlite(directory: directory.url)
        stores.readiness += extraChecks
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let deployment = try await WOPIDeployment(stores: stores, configuration: configuration, logger: logger)
        let router = Router(context: WOPIRequestContext.self)
        deployment.addRoutes(to: router)
        try await LoopbackServer.run(router, logger: logger) { base in try await body(deployment, base) }
    }

    @Test func probesAnswerWithoutAToken() async throws {
        try await Self.serve { _, base in
            let health = try await HTTP.get(base + "/healthz")
            #expect(health.status == 200 && health.text == "ok")
            let ready = try await HTTP.get(base + "/readyz")
            #expect(ready.status == 200 && ready.text == "ready")
            #expect(ready.header("Cache-Control") == "no-store")
            #expect(try await HTTP.get(base + "/metrics").status == 404, "metrics are off by default")
        }
    }

    @Test func aFailingCheckMakesItUnreadyAndSaysNothingMore() async throws {
        let failing = ReadinessCheck("secret-check") { throw StorageError(.unavailable, "db at 10.1.2.3 refused") }
        try await Self.serve(extraChecks: [failing]) { _, base in
            let reply = try await HTTP.get(base + "/readyz")
            #expect(reply.status == 503 && reply.text == "not ready")
            #expect(try await HTTP.get(base + "/healthz").status == 200)
        }
    }

    @Test func aCheckThatDoesNotAnswerInTimeMakesItUnready() async throws {
        var configuration = WOPIDeployment.Configuration()
        configuration.readinessTimeout = .milliseconds(200)
        // A check that never answers: it waits on a stream nothing writes to, until the probe cancels it.
        let (silence, keepOpen) = AsyncStream<Never>.makeStream()
        let hanging = ReadinessCheck("hangs") {
            _ = keepOpen
            for await _ in silence {}
        }
        try await Self.serve(configuration, extraChecks: [hanging]) { (_: WOPIDeployment, base: String) async throws in
            let reply = try await HTTP.get(base + "/readyz")
            #expect(reply.status == 503, "the probe answers at its timeout, not when the check gives up")
        }
    }

    @Test func readinessNeedsAWritableDataFolderWithFreeSpace() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await ReadinessCheck.writableFolder(folder.url).check()
        await #expect(throws: (any Error).self) {
            try await ReadinessCheck.writableFolder(folder.url, minimumFreeBytes: .max).check()
        }
        await #expect(throws: (any Error).self) {
            try await ReadinessCheck.writableFolder(folder.url.appendingPathComponent("missing")).check()
        }
    }

    @Test func metricsOnAPathCountRequestsWithoutSecrets() async throws {
        var configuration = WOPIDeployment.Configuration()
        configuration.metrics = .path("/metrics")
        try await Self.serve(configuration) { deployment, base in
            let user = WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
            try await deployment.stores.users.save(user)
            let root = try await deployment.stores.storage.rootContainer(forUser: "ana")
            let file = try await deployment.stores.storage.createFile(
                named: "a.txt", in: root.id, content: .empty, overwrite: false)
            let (token, _) = deployment.host.mintToken(userID: "ana", resource: .file(file.id))
            #expect(try await HTTP.get("\(base)/wopi/files/\(file.id)?access_token=\(token)").status == 200)
            #expect(try await HTTP.get("\(base)/wopi/files/\(file.id)?access_token=wrong").status == 401)

            let metrics = try await HTTP.get(base + "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(metrics.text.contains(#"wopi_requests_total{operation="CheckFileInfo",status="200"} 1"#))
            #expect(metrics.text.contains(#"wopi_requests_total{operation="CheckFileInfo",status="401"} 1"#))
            #expect(
                metrics.text.contains(#"wopi_request_duration_seconds_bucket{operation="CheckFileInfo",le="1.5"} "#))
            for secret in [token, file.id.rawValue, "ana", "wrong"] {
                #expect(!metrics.text.contains(secret), "the metrics hold \(secret)")
            }
        }
    }

    @Test func theActiveLocksGaugeIsReadFromTheLockStoreAtEachScrape() async throws {
        var configuration = WOPIDeployment.Configuration()
        configuration.metrics = .path("/metrics")
        try await Self.serve(configuration) { deployment, base in
            func gauge(_ kind: String) async throws -> Double? {
                let text = try await HTTP.get(base + "/metrics").text
                let prefix = #"wopi_active_locks{kind="\#(kind)"} "#
                return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap {
                    Double($0.dropFirst(prefix.count))
                }
            }
            #expect(try await gauge("wopi") == 0)
            let user = WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
            try await deployment.stores.users.save(user)
            let root = try await deployment.stores.storage.rootContainer(forUser: "ana")
            var files: [ItemID] = []
            for name in ["a.docx", "b.docx"] {
                let file = try await deployment.stores.storage.createFile(
                    named: name, in: root.id, content: .empty, overwrite: false)
                let (token, _) = deployment.host.mintToken(userID: "ana", resource: .file(file.id))
                let lock = try await HTTP.post(
                    "\(base)/wopi/files/\(file.id)?access_token=\(token)",
                    ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"])
                #expect(lock.status == 200)
                files.append(file.id)
            }
            #expect(try await gauge("wopi") == 2)
            #expect(try await gauge("coauth") == 0)
            try await deployment.breakLocks(on: files[0])
            #expect(try await gauge("wopi") == 1, "a broken lock leaves the gauge at the next scrape")
        }
    }
}
