import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIAuthorizationServer
import WOPIServerConformance
import WOPIStorageConformance
import WOPITestSupport

@Suite("OAuthStore conformance")
struct OAuthStoreConformanceTests {
    @Test("every store passes the kit", arguments: OAuthStoreConformance.cases, ["memory", "file", "sqlite"])
    func conformance(_ kit: ConformanceCase<any OAuthStore>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryOAuthStore()
        try await kit.run {
            switch kind {
            case "memory": memory
            case "file": FileOAuthStore(url: folder.appending("oauth.json"))
            default: try SQLiteOAuthStore(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    /// A store whose code redemption reads, suspends, then writes: racing callers can all redeem first.
    actor RacyStore: ForwardingOAuthStore {
        nonisolated let base = InMemoryOAuthStore()
        var codes: [String: OAuthCodeRecord] = [:]
        func saveCode(_ code: OAuthCodeRecord) { codes[code.hash] = code }
        func redeemCode(_ hash: String) async -> OAuthRedemption<OAuthCodeRecord>? {
            guard let code = codes[hash] else { return nil }
            for _ in 0..<4 { await Task.yield() }
            if code.isRedeemed { return .replay(code) }
            codes[hash]?.isRedeemed = true
            return .first(code)
        }
    }

    @Test("the kit fails a store whose code redemption is not atomic")
    func catchesRacyRedemption() async throws {
        let race = try #require(OAuthStoreConformance.cases.first { $0.name.contains("one code across two instances") })
        let store = RacyStore()
        let failure = await #expect(throws: ConformanceFailure.self) { try await race.run { store } }
        #expect(failure?.message.contains("first redemptions of one code") == true)
    }

    @Test("the kit fails instances that do not share one store")
    func catchesUnsharedInstances() async throws {
        var failed: [String] = []
        for kit in OAuthStoreConformance.cases {
            do {
                try await kit.run { InMemoryOAuthStore() }
            } catch is ConformanceFailure {
                failed.append(kit.name)
            }
        }
        #expect(failed.contains { $0.hasPrefix("a second instance on the same store") })
        #expect(failed.contains { $0.contains("one code across two instances") })
        #expect(failed.contains { $0.hasPrefix("a revoked family refuses new tokens") })
        #expect(!failed.contains { $0.hasPrefix("a code redeems once") })
    }
}
