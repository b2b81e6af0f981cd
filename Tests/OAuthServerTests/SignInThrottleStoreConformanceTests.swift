import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIAuthorizationServer
import WOPIServerConformance
import WOPIStorageConformance
import WOPITestSupport

@Suite("SignInThrottleStore conformance")
struct SignInThrottleStoreConformanceTests {
    @Test("every store passes the kit", arguments: SignInThrottleStoreConformance.cases, ["memory", "file", "sqlite"])
    func conformance(_ kit: ConformanceCase<any SignInThrottleStore>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemorySignInThrottleStore()
        try await kit.run {
            switch kind {
            case "memory": memory
            case "file": FileSignInThrottleStore(url: folder.appending("sign-in-failures.json"))
            default: try SQLiteSignInThrottleStore(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    @Test("the kit fails instances that do not share one store")
    func catchesUnsharedInstances() async throws {
        let second = try #require(SignInThrottleStoreConformance.cases.first { $0.name.hasPrefix("a second instance") })
        await #expect(throws: ConformanceFailure.self) { try await second.run { InMemorySignInThrottleStore() } }
    }
}
