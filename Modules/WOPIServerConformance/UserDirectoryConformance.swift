public import WOPIServer
public import WOPIStorageConformance

/// The conformance kit for ``WOPIServer/UserDirectory``: reads, replacement, user info, listing, sign-in lookup,
/// and what a second opener of the same directory sees.
///
/// Every case uses users whose IDs start with a random tag, so the cases also run against a directory that holds
/// other users.
public enum UserDirectoryConformance {
    /// Every user directory conformance case.
    public static var cases: [ConformanceCase<any UserDirectory>] {
        [
            .init("an unknown ID or sign-in name finds no user", unknown),
            .init("a saved user reads back field for field", roundTrip),
            .init("saving a user with a known ID replaces it, sign-in name included", replace),
            .init("setUserInfo changes the user info only, and creates no user", userInfo),
            .init("allUsers lists every user sorted by ID", listing),
            .init("a sign-in name matches ignoring case, Unicode included; the smallest ID wins a tie", signInName),
            .init("a second opener of the same directory sees every change at once", secondOpener),
            .init("16 concurrent saves from two openers all land", concurrentSaves),
        ]
    }

    /// A fresh tag of ASCII letters, unique to one case run.
    private static func tag() -> String {
        "t" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    private static func user(_ id: String, _ signInName: String, hash: String? = "h") -> WOPIUser {
        WOPIUser(id: id, signInName: signInName, displayName: "Name of \(id)", passwordHash: hash)
    }

    static func unknown(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let users = try await open()
        let tag = tag()
        try await users.save(user("\(tag)a", "\(tag)a@example.com"))
        try Check.expect(try await users.user("\(tag)b") == nil, "user(\"\(tag)b\") of an unknown ID is nil")
        try Check.expect(
            try await users.user(signInName: "\(tag)b@example.com") == nil,
            "user(signInName:) of an unknown name is nil")
        try Check.expect(
            try await users.user(signInName: "\(tag)a") == nil,
            "user(signInName:) matches whole names only, not an ID or a prefix")
    }

    static func roundTrip(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let users = try await open()
        let tag = tag()
        let full = WOPIUser(
            id: "\(tag)1", signInName: "Zoë.\(tag)@example.com", displayName: "Zoë Ünal", passwordHash: "scrypt$15$x",
            userInfo: "{\"theme\":\"dark\"}")
        let bare = WOPIUser(id: "\(tag)2", signInName: "\(tag)2", displayName: "", passwordHash: nil)
        try await users.save(full)
        try await users.save(bare)
        try Check.expectEqual(try await users.user(full.id), full, "user(\(full.id)) after save")
        try Check.expectEqual(try await users.user(bare.id), bare, "a user without password hash and user info")
        try Check.expectEqual(
            try await users.user(signInName: full.signInName), full, "user(signInName:) of its exact sign-in name")
    }

    static func replace(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let users = try await open()
        let tag = tag()
        try await users.save(user("\(tag)1", "old.\(tag)@example.com", hash: "h1"))
        let replacement = WOPIUser(
            id: "\(tag)1", signInName: "new.\(tag)@example.com", displayName: "New", passwordHash: "h2")
        try await users.save(replacement)
        try Check.expectEqual(try await users.user("\(tag)1"), replacement, "the user after a second save")
        try Check.expectEqual(
            try await users.allUsers().filter { $0.id.hasPrefix(tag) }, [replacement],
            "allUsers after replacing a user (one record per ID)")
        try Check.expect(
            try await users.user(signInName: "old.\(tag)@example.com") == nil,
            "the old sign-in name of a replaced user must no longer find it")
        try Check.expectEqual(
            try await users.user(signInName: "new.\(tag)@example.com"), replacement,
            "the new sign-in name of a replaced user")
    }

    static func userInfo(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let users = try await open()
        let tag = tag()
        let saved = user("\(tag)1", "\(tag)@example.com")
        try await users.save(saved)
        try await users.setUserInfo("{\"a\":1}", for: saved.id)
        var expected = saved
        expected.userInfo = "{\"a\":1}"
        try Check.expectEqual(try await users.user(saved.id), expected, "the user after setUserInfo")
        try await users.setUserInfo("second", for: saved.id)
        try Check.expectEqual(try await users.user(saved.id)?.userInfo, "second", "the user info after a second set")
        try await users.setUserInfo("ghost", for: "\(tag)2")
        try Check.expect(try await users.user("\(tag)2") == nil, "setUserInfo for an unknown ID must not create a user")
    }

    static func listing(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let users = try await open()
        let tag = tag()
        let ids = ["\(tag)m", "\(tag)b", "\(tag)z", "\(tag)a"]
        for id in ids { try await users.save(user(id, "\(id)@example.com")) }
        let all = try await users.allUsers()
        try Check.expectEqual(all.map(\.id), all.map(\.id).sorted(), "allUsers is sorted by ID")
        try Check.expectEqual(all.map(\.id).filter { $0.hasPrefix(tag) }, ids.sorted(), "the saved users in allUsers")
    }

    static func signInName(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let users = try await open()
        let tag = tag()
        try await users.save(user("\(tag)b", "Ana.\(tag)@Example.com"))
        try await users.save(user("\(tag)a", "ana.\(tag)@example.COM"))
        try await users.save(user("\(tag)c", "ÉLODIE.\(tag)"))
        try Check.expectEqual(
            try await users.user(signInName: "ANA.\(tag.uppercased())@EXAMPLE.COM")?.id, "\(tag)a",
            "of two users whose sign-in names differ only in case, the smallest ID")
        try Check.expectEqual(
            try await users.user(signInName: "élodie.\(tag)")?.id, "\(tag)c", "a non-ASCII sign-in name in lower case")
    }

    static func secondOpener(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let first = try await open()
        let second = try await open()
        let tag = tag()
        try await first.save(user("\(tag)1", "\(tag)@example.com"))
        try Check.expectEqual(try await second.user("\(tag)1")?.id, "\(tag)1", "the second opener reads a new user")
        try Check.expectEqual(
            try await second.user(signInName: "\(tag)@example.com")?.id, "\(tag)1",
            "the second opener finds a new user by sign-in name")
        try await second.setUserInfo("from second", for: "\(tag)1")
        try Check.expectEqual(
            try await first.user("\(tag)1")?.userInfo, "from second", "the first opener reads the second's change")
    }

    static func concurrentSaves(_ open: @escaping ConformanceCase<any UserDirectory>.Opener) async throws {
        let openers = [try await open(), try await open()]
        let tag = tag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                let users = openers[index % 2]
                group.addTask { try await users.save(user("\(tag)\(index)", "\(tag)\(index)@example.com")) }
            }
            try await group.waitForAll()
        }
        let saved = try await openers[0].allUsers().filter { $0.id.hasPrefix(tag) }
        try Check.expectEqual(saved.count, 16, "users present after 16 concurrent saves (a lost update drops some)")
    }
}
