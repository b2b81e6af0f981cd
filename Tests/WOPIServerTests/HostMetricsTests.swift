import Crypto
import Foundation
import HTTPTypes
import MetricsTestKit
import NIOCore
import NIOHTTP1
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The host's metrics (Docs/operations.md): requests by operation and status, lock conflicts, bytes, storage errors
/// and proof-key failures, with bounded labels only.
@Suite struct HostMetricsTests {
    static func configuration(_ metrics: TestMetrics) -> WOPIHostConfiguration {
        var configuration = WOPIHostConfiguration()
        configuration.metricsFactory = metrics
        return configuration
    }

    static func requests(_ metrics: TestMetrics, _ operation: String, _ status: Int) -> Int64 {
        metrics.counterTotal(
            label: "wopi_requests_total", dimensions: [("operation", operation), ("status", "\(status)")])
    }

    @Test func aSessionIsCountedByOperationStatusAndBytes() async throws {
        let metrics = TestMetrics()
        try await TestHost.run(configuration: Self.configuration(metrics)) { wopi in
            let file = try await wopi.seedFile("Budget.xlsx", "1234")
            let token = wopi.token(.file(file.id))
            let url = wopi.fileURL(file.id, token: token)
            #expect(try await wopi.get(url).status == 200)
            #expect(try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "A"]).status == 200)
            #expect(try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "B"]).status == 409)
            let put = try await wopi.send(
                .POST, wopi.fileURL(file.id, "/contents", token: token),
                headers: ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "A"], body: "123456789")
            #expect(put.status == 200)
            #expect(try await wopi.get(wopi.fileURL(file.id, "/contents", token: token)).text == "123456789")
            #expect(try await wopi.get("\(wopi.wopiRoot)/files/\(file.id)?access_token=forged").status == 401)
            #expect(try await wopi.get("\(wopi.wopiRoot)/nothing-here").status == 404)

            #expect(Self.requests(metrics, "CheckFileInfo", 200) == 1)
            #expect(Self.requests(metrics, "Lock", 200) == 1)
            #expect(Self.requests(metrics, "Lock", 409) == 1)
            #expect(Self.requests(metrics, "PutFile", 200) == 1)
            #expect(Self.requests(metrics, "GetFile", 200) == 1)
            #expect(Self.requests(metrics, "CheckFileInfo", 401) == 1)
            #expect(Self.requests(metrics, "NotWOPI", 404) == 1)
            #expect(metrics.counterTotal(label: "wopi_lock_conflicts_total") == 1)
            #expect(metrics.counterTotal(label: "wopi_putfile_bytes_total") == 9)
            #expect(metrics.counterTotal(label: "wopi_getfile_bytes_total") == 9)
            let durations = try metrics.expectTimer("wopi_request_duration_seconds", [("operation", "CheckFileInfo")])
            #expect(durations.values.count == 2)

            // Labels are bounded: no file ID, user name or token in any of them.
            let labelValues =
                metrics.counters.flatMap(\.dimensions).map(\.1)
                + metrics.timers.flatMap(\.dimensions).map(\.1)
            for secret in [file.id.rawValue, token, wopi.user, "forged"] {
                #expect(!labelValues.contains { $0.contains(secret) }, "a label holds \(secret)")
            }
        }
    }

    @Test func storageFailuresAreCountedByCode() async throws {
        let metrics = TestMetrics()
        let wopi = TestHost(configuration: Self.configuration(metrics), locks: UnreachableLockStore())
        let file = try await wopi.seedFile("a.docx", "x")
        let lock = await wopi.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "A"])
        #expect(lock.status == .serviceUnavailable)
        #expect(metrics.counterTotal(label: "wopi_storage_errors_total", dimensions: [("code", "unavailable")]) == 1)
        #expect(Self.requests(metrics, "Lock", 503) == 1)
    }

    @Test func proofKeyFailuresAreCountedByCheck() async throws {
        let metrics = TestMetrics()
        let signer = try ProofSigner()
        let document = ChangingDiscovery(try TestDiscoveryXML.make(clientURL: "https://c", current: signer, old: nil))
        var configuration = Self.configuration(metrics)
        configuration.proofKeySource = DiscoveryClient(source: document.source)
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("a.docx")
            #expect(try await wopi.get(wopi.fileURL(file.id)).status == 500)
            #expect(
                metrics.counterTotal(label: "wopi_proof_key_failures_total", dimensions: [("check", "missingHeaders")])
                    == 1)
        }
    }
}

/// A lock store whose database is away: every call fails as a lost database does.
private struct UnreachableLockStore: LockStore {
    private var away: StorageError { StorageError(.unavailable, "The database does not answer.") }
    func lock(on file: ItemID) async throws -> FileLock? { throw away }
    func compareAndSwap(file: ItemID, expected: String?, new: FileLock?) async throws -> LockSwapOutcome { throw away }
    func coauthLocks(on file: ItemID) async throws -> CoauthLockSet { throw away }
    func compareAndSwapCoauth(
        file: ItemID, expectedRevision: Int64, new: [CoauthLock]
    ) async throws -> CoauthSwapOutcome { throw away }
    func heldLocks() async throws -> [HeldLock] { throw away }
    func breakLocks(on file: ItemID) async throws -> Int { throw away }
}
