import Foundation
import NIOHTTP1
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Proof keys on every WOPI request over HTTP, when the host has discovery (Docs/wopi-protocol.md §12.4): what is
/// refused (500 with `X-WOPI-ServerError` naming the check), the old-key combinations that are accepted, and a
/// rotated discovery picked up without a restart.
@Suite struct ProofKeyHostTests {
    struct Keys {
        let current: ProofSigner
        let old: ProofSigner
        let stranger: ProofSigner
        init() throws {
            current = try ProofSigner()
            old = try ProofSigner()
            stranger = try ProofSigner()
        }
    }

    /// Runs `body` against a host whose discovery publishes `current` (and `old`).
    static func withHost<T: Sendable>(
        current: ProofSigner, old: ProofSigner? = nil, clock: TestClock = TestClock(), disabled: Bool = false,
        _ body: @Sendable (TestHost, ChangingDiscovery) async throws -> T
    ) async throws -> T {
        let document = ChangingDiscovery(try TestDiscoveryXML.make(clientURL: "https://c", current: current, old: old))
        var configuration = WOPIHostConfiguration()
        configuration.proofKeySource = DiscoveryClient(source: document.source, now: clock.dateSource)
        configuration.proofKeyCheckDisabled = disabled
        return try await TestHost.run(configuration: configuration) { wopi in try await body(wopi, document) }
    }

    static func checkFileInfo(
        _ wopi: TestHost, _ id: ItemID, signedBy signer: ProofSigner?, old: ProofSigner? = nil, at date: Date = Date(),
        signedURL: String? = nil
    ) async throws -> HTTP.Reply {
        let token = wopi.token(.file(id))
        let url = wopi.fileURL(id, token: token)
        let headers = try signer?.headers(url: signedURL ?? url, token: token, at: date, old: old) ?? [:]
        return try await wopi.get(url, headers: headers)
    }

    static func refusal(_ reply: HTTP.Reply) -> String {
        reply.status == 500 ? reply.header("X-WOPI-ServerError") ?? "(no X-WOPI-ServerError)" : "status \(reply.status)"
    }

    @Test func signedRequestsAreServedThroughLockGetPutAndUnlock() async throws {
        let keys = try Keys()
        try await Self.withHost(current: keys.current) { wopi, _ in
            let file = try await wopi.seedFile("Report.docx")
            let token = wopi.token(.file(file.id))
            func send(_ method: HTTPMethodName, _ suffix: String, _ headers: [String: String], body: String? = nil)
                async throws -> HTTP.Reply
            {
                let url = wopi.fileURL(file.id, suffix, token: token)
                let signed = try keys.current.headers(url: url, token: token).merging(headers) { $1 }
                return try await wopi.send(method == .get ? .GET : .POST, url, headers: signed, body: body)
            }
            #expect(try await send(.get, "", [:]).status == 200)
            #expect(try await send(.post, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L1"]).status == 200)
            #expect(try await send(.get, "/contents", [:]).text == "hello")
            let put = try await send(.post, "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L1"], body: "new")
            #expect(put.status == 200)
            #expect(try await send(.post, "", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "L1"]).status == 200)
            #expect(try await send(.get, "/contents", [:]).text == "new")
        }
    }

    enum HTTPMethodName { case get, post }

    @Test func requestsWithoutProofAreRefused() async throws {
        let keys = try Keys()
        try await Self.withHost(current: keys.current) { wopi, _ in
            let file = try await wopi.seedFile("a.docx")
            let reply = try await Self.checkFileInfo(wopi, file.id, signedBy: nil)
            #expect(Self.refusal(reply).hasPrefix("Proof-key check failed (missingHeaders)"))
            // Unsigned requests to containers and the ecosystem are refused too.
            let root = try await wopi.host.storage.rootContainer(forUser: wopi.user)
            #expect(try await wopi.get(wopi.containerURL(root.id)).status == 500)
        }
    }

    @Test func proofsByAnUnknownKeyAreRefused() async throws {
        let keys = try Keys()
        try await Self.withHost(current: keys.current) { wopi, _ in
            let file = try await wopi.seedFile("a.docx")
            let reply = try await Self.checkFileInfo(wopi, file.id, signedBy: keys.stranger, old: keys.stranger)
            #expect(Self.refusal(reply).hasPrefix("Proof-key check failed (signatureMismatch)"))
        }
    }

    @Test func timestampsOlderThanTwentyMinutesAreRefused() async throws {
        let keys = try Keys()
        try await Self.withHost(current: keys.current) { wopi, _ in
            let file = try await wopi.seedFile("a.docx")
            let stale = try await Self.checkFileInfo(
                wopi, file.id, signedBy: keys.current, at: Date().addingTimeInterval(-21 * 60))
            #expect(Self.refusal(stale).hasPrefix("Proof-key check failed (timestampTooOld)"))
            let recent = try await Self.checkFileInfo(
                wopi, file.id, signedBy: keys.current, at: Date().addingTimeInterval(-19 * 60))
            #expect(recent.status == 200)
        }
    }

    @Test func proofsForAnotherURLAreRefused() async throws {
        let keys = try Keys()
        try await Self.withHost(current: keys.current) { wopi, _ in
            let file = try await wopi.seedFile("a.docx")
            let other = try await wopi.seedFile("b.docx")
            let token = wopi.token(.file(file.id))
            let reply = try await Self.checkFileInfo(
                wopi, file.id, signedBy: keys.current, signedURL: wopi.fileURL(other.id, token: token))
            #expect(Self.refusal(reply).hasPrefix("Proof-key check failed (signatureMismatch)"))
        }
    }

    /// The documented table: Proof with the current key; ProofOld with the current key (the client rotated, the
    /// host not yet); Proof with the old key (the host rotated, the client not yet). ProofOld with the old key alone
    /// is not enough.
    @Test func oldKeyCombinationsFollowTheTable() async throws {
        let keys = try Keys()
        try await Self.withHost(current: keys.current, old: keys.old) { wopi, _ in
            let file = try await wopi.seedFile("a.docx")
            func status(_ proof: ProofSigner, _ proofOld: ProofSigner) async throws -> Int {
                try await Self.checkFileInfo(wopi, file.id, signedBy: proof, old: proofOld).status
            }
            #expect(try await status(keys.current, keys.old) == 200)
            #expect(try await status(keys.current, keys.stranger) == 200)
            #expect(try await status(keys.stranger, keys.current) == 200)
            #expect(try await status(keys.old, keys.stranger) == 200)
            #expect(try await status(keys.stranger, keys.old) == 500)
            #expect(try await status(keys.stranger, keys.stranger) == 500)
        }
    }

    @Test func aRotatedDiscoveryIsPickedUpWithoutARestart() async throws {
        let keys = try Keys()
        let clock = TestClock()
        try await Self.withHost(current: keys.old, clock: clock) { wopi, document in
            let file = try await wopi.seedFile("a.docx")
            #expect(try await Self.checkFileInfo(wopi, file.id, signedBy: keys.old).status == 200)
            #expect(document.fetches == 1)
            // The client rotates twice (a key the host never saw); its next request makes the host refetch.
            clock.advance(by: 61.0)
            let next = try ProofSigner()
            document.set(try TestDiscoveryXML.make(clientURL: "https://c", current: next, old: keys.current))
            #expect(try await Self.checkFileInfo(wopi, file.id, signedBy: next, old: keys.current).status == 200)
            #expect(document.fetches == 2)
            // A flood of bad proofs does not become a flood of fetches: at most one a minute.
            for _ in 0..<3 {
                #expect(try await Self.checkFileInfo(wopi, file.id, signedBy: keys.stranger).status == 500)
            }
            #expect(document.fetches == 2)
            clock.advance(by: 61.0)
            #expect(try await Self.checkFileInfo(wopi, file.id, signedBy: keys.stranger).status == 500)
            #expect(document.fetches == 3)
        }
    }

    @Test func withoutDiscoveryOrWithCheckingOffUnsignedRequestsAreServed() async throws {
        let keys = try Keys()
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("a.docx")
            #expect(try await Self.checkFileInfo(wopi, file.id, signedBy: nil).status == 200)
        }
        try await Self.withHost(current: keys.current, disabled: true) { wopi, document in
            let file = try await wopi.seedFile("a.docx")
            #expect(try await Self.checkFileInfo(wopi, file.id, signedBy: nil).status == 200)
            #expect(document.fetches == 0)
        }
    }

    @Test func discoveryWithoutProofKeysRefusesEveryRequest() async throws {
        let document = ChangingDiscovery(try TestDiscoveryXML.make(clientURL: "https://c", current: nil))
        var configuration = WOPIHostConfiguration()
        configuration.proofKeySource = DiscoveryClient(source: document.source)
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("a.docx")
            let reply = try await Self.checkFileInfo(wopi, file.id, signedBy: nil)
            #expect(Self.refusal(reply).hasPrefix("Proof-key check failed (keysUnavailable)"))
        }
    }
}
