import Foundation
import Testing
import WOPIOAuth

@Suite("Token stores")
struct TokenStoreTests {
    let sample = TokenSet(
        accessToken: "access", refreshToken: "refresh", expiresAt: Date(timeIntervalSince1970: 1_700_000_000.25),
        scope: "wopi", tokenEndpoint: URL(string: "https://contoso.com/tk"), sessionContext: "hello:World")

    /// The behaviour every store shares.
    private func exercise(_ store: any TokenStore) async throws {
        #expect(try await store.load(key: "a") == nil)
        try await store.save(sample, key: "a")
        try await store.save(TokenSet(accessToken: "other"), key: "https://contoso.com|client/id")
        #expect(try await store.load(key: "a") == sample)
        #expect(try await store.load(key: "https://contoso.com|client/id")?.accessToken == "other")
        var replaced = sample
        replaced.accessToken = "access-2"
        try await store.save(replaced, key: "a")
        #expect(try await store.load(key: "a")?.accessToken == "access-2")
        try await store.delete(key: "a")
        try await store.delete(key: "a")
        #expect(try await store.load(key: "a") == nil)
        #expect(try await store.load(key: "https://contoso.com|client/id") != nil)
    }

    @Test func inMemoryStore() async throws {
        try await exercise(InMemoryTokenStore())
    }

    @Test func fileStore() async throws {
        try await withTemporaryDirectory { root in
            try await exercise(FileTokenStore(directory: root.appendingPathComponent("nested/tokens")))
        }
    }

    @Test func fileStoreIsPrivateAndAtomic() async throws {
        try await withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("wopi/tokens")
            let store = FileTokenStore(directory: directory)
            try await store.save(sample, key: "k")
            #expect(try permissions(of: directory) == 0o700)
            let file = store.fileURL(forKey: "k")
            #expect(try permissions(of: file) == 0o600)
            // Replacing keeps 0600 and leaves no temporary files behind.
            try await store.save(sample, key: "k")
            #expect(try permissions(of: file) == 0o600)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names == [file.lastPathComponent])
            // The file is JSON holding the tokens.
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            #expect(json?["accessToken"] as? String == "access")
        }
    }

    @Test func fileStoreReportsCorruptFiles() async throws {
        try await withTemporaryDirectory { root in
            let store = FileTokenStore(directory: root)
            try Data("not json".utf8).write(to: store.fileURL(forKey: "k"))
            do {
                _ = try await store.load(key: "k")
                Issue.record("a corrupt file loaded")
            } catch let error as OAuthError {
                #expect(error.code == .storage)
            }
        }
    }
}
