import Foundation
public import WOPIOAuth
public import WOPIStorageConformance

/// The conformance kit for ``WOPIOAuth/TokenStore``: reads, replacement, deletion, keys of any characters, what a
/// second opener sees, and concurrent saves.
///
/// Every case uses keys that start with a random tag, so the cases also run against a store that holds other keys.
public enum TokenStoreConformance {
    /// Every token store conformance case.
    public static var cases: [ConformanceCase<any TokenStore>] {
        [
            .init("a key never saved loads nil", missing),
            .init("saved tokens load back field for field", roundTrip),
            .init("saving under a key again replaces its tokens", replace),
            .init("keys of any characters are kept apart", keys),
            .init("delete removes a key's tokens only; deleting nothing is not an error", delete),
            .init("a second opener of the same store sees every change", secondOpener),
            .init("16 concurrent saves to 8 keys leave each key one whole token set", concurrentSaves),
        ]
    }

    typealias Opener = ConformanceCase<any TokenStore>.Opener

    private static func tag() -> String { "kit-\(UUID().uuidString)" }

    /// A token set with every field set (whole-second expiry, so a store keeping seconds compares equal).
    private static func sample(_ access: String) -> TokenSet {
        TokenSet(
            accessToken: access, tokenType: "Bearer", refreshToken: "refresh-\(access)",
            expiresAt: Date(timeIntervalSince1970: 1_900_000_000), scope: "wopi offline_access", idToken: "id.token.x",
            tokenEndpoint: URL(string: "https://contoso.example/oauth2/token"), sessionContext: "sc:ä/ö")
    }

    static func missing(_ open: @escaping Opener) async throws {
        let store = try await open()
        try Check.expect(try await store.load(key: tag()) == nil, "load of a key never saved is nil")
    }

    static func roundTrip(_ open: @escaping Opener) async throws {
        let store = try await open()
        let key = tag()
        let full = sample("a1")
        try await store.save(full, key: key)
        try Check.expectEqual(try await store.load(key: key), full, "the tokens loaded after save")
        let bare = TokenSet(accessToken: "only-access")
        try await store.save(bare, key: key + "-bare")
        try Check.expectEqual(try await store.load(key: key + "-bare"), bare, "a token set with only an access token")
    }

    static func replace(_ open: @escaping Opener) async throws {
        let store = try await open()
        let key = tag()
        try await store.save(sample("first"), key: key)
        let second = TokenSet(accessToken: "second", expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
        try await store.save(second, key: key)
        try Check.expectEqual(try await store.load(key: key), second, "the tokens after a second save (no merge)")
    }

    static func keys(_ open: @escaping Opener) async throws {
        let store = try await open()
        let base = tag()
        let keys = [
            base, base + "|https://contoso.com|client/id", base + "/../escape", base + " späce ✓", base.uppercased(),
        ]
        for (index, key) in keys.enumerated() { try await store.save(sample("k\(index)"), key: key) }
        for (index, key) in keys.enumerated() {
            try Check.expectEqual(try await store.load(key: key)?.accessToken, "k\(index)", "the tokens of key \(key)")
        }
    }

    static func delete(_ open: @escaping Opener) async throws {
        let store = try await open()
        let key = tag()
        try await store.save(sample("gone"), key: key)
        try await store.save(sample("kept"), key: key + "-other")
        try await Check.step("delete of a saved key") { try await store.delete(key: key) }
        try Check.expect(try await store.load(key: key) == nil, "load after delete is nil")
        try Check.expectEqual(
            try await store.load(key: key + "-other")?.accessToken, "kept", "another key's tokens after a delete")
        try await Check.step("a second delete of the same key") { try await store.delete(key: key) }
        try await Check.step("delete of a key never saved") { try await store.delete(key: tag()) }
    }

    static func secondOpener(_ open: @escaping Opener) async throws {
        let first = try await open()
        let second = try await open()
        let key = tag()
        try await first.save(sample("shared"), key: key)
        try Check.expectEqual(try await second.load(key: key), sample("shared"), "tokens saved by the first opener")
        try await second.delete(key: key)
        try Check.expect(try await first.load(key: key) == nil, "a delete by the second opener, seen by the first")
    }

    static func concurrentSaves(_ open: @escaping Opener) async throws {
        let stores = [try await open(), try await open()]
        let base = tag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                let store = stores[index % 2]
                group.addTask { try await store.save(sample("\(base)-\(index)"), key: "\(base)-\(index % 8)") }
            }
            try await group.waitForAll()
        }
        for slot in 0..<8 {
            let loaded = try Check.require(
                try await stores[0].load(key: "\(base)-\(slot)"), "the tokens of key \(slot) after concurrent saves")
            let candidates = [sample("\(base)-\(slot)"), sample("\(base)-\(slot + 8)")]
            try Check.expect(
                candidates.contains(loaded), "key \(slot) holds \(loaded.accessToken), not one of the two saved sets")
        }
    }
}
