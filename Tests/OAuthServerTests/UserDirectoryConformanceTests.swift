import Foundation
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIServer
import WOPIServerConformance
import WOPIStorageConformance
import WOPITestSupport

@Suite("UserDirectory conformance")
struct UserDirectoryConformanceTests {
    @Test("every directory passes the kit", arguments: UserDirectoryConformance.cases, ["memory", "file", "sqlite"])
    func conformance(_ kit: ConformanceCase<any UserDirectory>, _ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let memory = InMemoryUserDirectory()
        try await kit.run {
            switch kind {
            case "memory": memory
            case "file": FileUserDirectory(url: folder.appending("users.json"))
            default: try SQLiteUserDirectory(database: SQLiteDatabase(path: folder.appending("wopi.sqlite").path))
            }
        }
    }

    /// A directory that appends instead of replacing, and compares sign-in names byte for byte.
    actor CarelessDirectory: UserDirectory {
        var users: [WOPIUser] = []
        func user(_ id: String) -> WOPIUser? { users.first { $0.id == id } }
        func user(signInName: String) -> WOPIUser? { users.first { $0.signInName == signInName } }
        func save(_ user: WOPIUser) { users.append(user) }
        func allUsers() -> [WOPIUser] { users.sorted { $0.id < $1.id } }
    }

    @Test("the kit fails a directory that keeps stale copies and matches sign-in names by case")
    func catchesBrokenDirectory() async throws {
        var failed: [String] = []
        for kit in UserDirectoryConformance.cases {
            let broken = CarelessDirectory()
            do {
                try await kit.run { broken }
            } catch is ConformanceFailure {
                failed.append(kit.name)
            }
        }
        #expect(failed.contains { $0.hasPrefix("saving a user with a known ID replaces it") })
        #expect(failed.contains { $0.hasPrefix("a sign-in name matches ignoring case") })
        #expect(failed.contains { $0.hasPrefix("setUserInfo changes the user info only") })
        #expect(!failed.contains { $0.hasPrefix("an unknown ID") })
    }

    @Test("a second opener that does not share state fails the kit's sharing cases")
    func catchesUnsharedDirectory() async throws {
        let sharing = UserDirectoryConformance.cases.filter { $0.name.contains("second opener") }
        #expect(sharing.count == 1)
        for kit in sharing {
            await #expect(throws: ConformanceFailure.self) {
                try await kit.run { InMemoryUserDirectory() }
            }
        }
    }
}
