import Foundation
import Testing
import WOPIOAuth
import WOPIOAuthConformance
import WOPIStorageConformance
import WOPITestSupport

@Suite("TokenStore conformance")
struct TokenStoreConformanceTests {
    @Test("every store passes the kit", arguments: TokenStoreConformance.cases, ["memory", "file"])
    func conformance(_ kit: ConformanceCase<any TokenStore>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryTokenStore()
        try await kit.run {
            kind == "memory" ? memory as any TokenStore : FileTokenStore(directory: folder.appending("tokens"))
        }
    }

    /// A store that keeps the first tokens saved under a key and fails to delete a key it does not hold.
    actor StubbornStore: TokenStore {
        var tokens: [String: TokenSet] = [:]
        func load(key: String) -> TokenSet? { tokens[key] }
        func save(_ tokens: TokenSet, key: String) { if self.tokens[key] == nil { self.tokens[key] = tokens } }
        func delete(key: String) throws {
            guard tokens.removeValue(forKey: key) != nil else { throw OAuthError(.storage, "no such key") }
        }
    }

    @Test("the kit fails a store that does not replace, and one that cannot delete nothing")
    func catchesBrokenStore() async throws {
        var failed: [String] = []
        for kit in TokenStoreConformance.cases {
            let broken = StubbornStore()
            do {
                try await kit.run { broken }
            } catch is ConformanceFailure {
                failed.append(kit.name)
            }
        }
        #expect(failed.contains { $0.hasPrefix("saving under a key again replaces") })
        #expect(failed.contains { $0.hasPrefix("delete removes a key's tokens only") })
        #expect(!failed.contains { $0.hasPrefix("a key never saved loads nil") })
    }
}
