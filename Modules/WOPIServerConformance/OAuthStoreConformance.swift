import Foundation
public import WOPIAuthorizationServer
public import WOPIStorageConformance

/// The conformance kit for ``WOPIAuthorizationServer/OAuthStore``: clients, single-use codes and refresh tokens
/// (also under concurrency and across two instances on one database or file), revocation, and what a second
/// instance sees.
///
/// Records get random hashes and expire ten minutes after the case starts, so the cases also run against a store
/// that holds other records.
public enum OAuthStoreConformance {
    /// Every OAuth store conformance case.
    public static var cases: [ConformanceCase<any OAuthStore>] {
        [
            .init("clients read back, replace by ID and list sorted by ID", clients),
            .init("unknown codes and tokens are nil, and an access token is no refresh token", unknown),
            .init("a code redeems once, then reads as a replay of the stored record", codeSingleUse),
            .init("a refresh token redeems once, then reads as a replay", refreshSingleUse),
            .init("revoking a token deletes it alone; revoking a family deletes its tokens and uses its code", revoke),
            .init(
                "a revoked family refuses new tokens, and no token saved while it is revoked survives (two instances)",
                revokedFamilyRefusesTokens),
            .init("a second instance on the same store sees clients, codes and tokens", secondInstance),
            .init("of 16 racing redemptions of one code across two instances exactly one is first", codeRace),
            .init(
                "of 16 racing redemptions of one refresh token across two instances exactly one is first", refreshRace),
        ]
    }

    typealias Opener = ConformanceCase<any OAuthStore>.Opener

    private static func random() -> String { OAuthTokenHash.randomToken() }

    private static func code(family: String) -> OAuthCodeRecord {
        OAuthCodeRecord(
            hash: OAuthTokenHash.hash(random()), clientID: "kit-client", userID: "ana", scope: "wopi",
            redirectURI: "https://localhost", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            familyID: family, expiresAt: Date().addingTimeInterval(600).rounded)
    }

    private static func token(_ kind: OAuthTokenRecord.Kind, family: String) -> OAuthTokenRecord {
        OAuthTokenRecord(
            hash: OAuthTokenHash.hash(random()), kind: kind, clientID: "kit-client", userID: "ana", scope: "wopi",
            familyID: family, expiresAt: Date().addingTimeInterval(600).rounded)
    }

    static func clients(_ open: @escaping Opener) async throws {
        let store = try await open()
        let tag = random().filter { $0.isLetter || $0.isNumber }.prefix(12)
        let b = try OAuthClient(id: "\(tag)-b", kind: .public, redirectURIs: ["http://127.0.0.1/callback"])
        let a = try OAuthClient(
            id: "\(tag)-a", kind: .confidential(secretHash: "scrypt$1$8$1$c2FsdA==$a2V5"),
            redirectURIs: ["https://localhost"], name: "App A")
        try await store.saveClient(b)
        try await store.saveClient(a)
        try Check.expectEqual(try await store.client(a.id), a, "client(\(a.id)) after saveClient")
        try Check.expect(try await store.client("\(tag)-none") == nil, "an unknown client is nil")
        var changed = b
        changed.redirectURIs = ["com.example.app:/oauth"]
        changed.name = "Renamed"
        try await store.saveClient(changed)
        try Check.expectEqual(try await store.client(b.id), changed, "a client saved again replaces the first")
        let listed = try await store.allClients()
        try Check.expectEqual(listed.map(\.id), listed.map(\.id).sorted(), "allClients is sorted by ID")
        try Check.expectEqual(
            listed.filter { $0.id.hasPrefix(tag) }, [a, changed], "the saved clients in allClients, one per ID")
    }

    static func unknown(_ open: @escaping Opener) async throws {
        let store = try await open()
        try Check.expect(try await store.redeemCode(OAuthTokenHash.hash(random())) == nil, "an unknown code is nil")
        try Check.expect(try await store.token(OAuthTokenHash.hash(random())) == nil, "an unknown token is nil")
        try Check.expect(
            try await store.redeemRefreshToken(OAuthTokenHash.hash(random())) == nil,
            "an unknown refresh token redeems as nil")
        let access = token(.access, family: random())
        try await store.saveToken(access)
        try Check.expectEqual(try await store.token(access.hash), access, "an access token after saveToken")
        try Check.expect(
            try await store.redeemRefreshToken(access.hash) == nil, "an access token must not redeem as a refresh token"
        )
        try Check.expectEqual(try await store.token(access.hash), access, "the access token after that attempt")
    }

    static func codeSingleUse(_ open: @escaping Opener) async throws {
        let store = try await open()
        let saved = code(family: random())
        try await store.saveCode(saved)
        try Check.expectEqual(try await store.redeemCode(saved.hash), .first(saved), "the first redemption of a code")
        var used = saved
        used.isRedeemed = true
        try Check.expectEqual(try await store.redeemCode(saved.hash), .replay(used), "the second redemption")
        try Check.expectEqual(try await store.redeemCode(saved.hash), .replay(used), "the third redemption")
    }

    static func refreshSingleUse(_ open: @escaping Opener) async throws {
        let store = try await open()
        let saved = token(.refresh, family: random())
        try await store.saveToken(saved)
        try Check.expectEqual(
            try await store.redeemRefreshToken(saved.hash), .first(saved), "the first redemption of a refresh token")
        var used = saved
        used.isUsed = true
        try Check.expectEqual(try await store.redeemRefreshToken(saved.hash), .replay(used), "the second redemption")
    }

    static func revoke(_ open: @escaping Opener) async throws {
        let store = try await open()
        let family = random()
        let other = random()
        let familyCode = code(family: family)
        let access = token(.access, family: family)
        let refresh = token(.refresh, family: family)
        let otherAccess = token(.access, family: other)
        let otherRefresh = token(.refresh, family: other)
        try await store.saveCode(familyCode)
        for record in [access, refresh, otherAccess, otherRefresh] { try await store.saveToken(record) }

        try await store.revokeToken(otherAccess.hash)
        try Check.expect(try await store.token(otherAccess.hash) == nil, "a revoked token is gone")
        try Check.expectEqual(
            try await store.token(otherRefresh.hash), otherRefresh, "revoking one token keeps its family's others")
        try await store.revokeToken(OAuthTokenHash.hash(random()))  // unknown: nothing happens

        try await store.revokeFamily(family)
        try Check.expect(try await store.token(access.hash) == nil, "an access token of a revoked family is gone")
        try Check.expect(try await store.token(refresh.hash) == nil, "a refresh token of a revoked family is gone")
        try Check.expect(
            try await store.redeemRefreshToken(refresh.hash) == nil, "a revoked refresh token no longer redeems")
        guard case .replay? = try await store.redeemCode(familyCode.hash) else {
            throw ConformanceFailure("the code of a revoked family must read as used (a replay), never redeem first")
        }
        try Check.expectEqual(
            try await store.token(otherRefresh.hash), otherRefresh, "revoking a family keeps other families' tokens")
    }

    static func revokedFamilyRefusesTokens(_ open: @escaping Opener) async throws {
        let first = try await open()
        let second = try await open()
        let family = random()
        try await first.revokeFamily(family)
        let late = token(.refresh, family: family)
        do {
            try await second.saveToken(late)
            throw ConformanceFailure("saveToken into a revoked family must throw OAuthFamilyRevokedError")
        } catch let error as OAuthFamilyRevokedError {
            try Check.expectEqual(error.familyID, family, "the error names the revoked family")
        }
        try Check.expect(try await first.token(late.hash) == nil, "a refused token is not stored")

        // Saves racing a revocation, from both instances: whatever the order, no token of the family is left.
        let raced = random()
        let tokens = (0..<16).map { index in token(index.isMultiple(of: 2) ? .access : .refresh, family: raced) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, record) in tokens.enumerated() {
                group.addTask {
                    do {
                        try await (index.isMultiple(of: 2) ? first : second).saveToken(record)
                    } catch is OAuthFamilyRevokedError {}
                }
                if index == tokens.count / 2 { group.addTask { try await second.revokeFamily(raced) } }
            }
            try await group.waitForAll()
        }
        for record in tokens {
            try Check.expect(
                try await first.token(record.hash) == nil, "a token saved while its family was revoked is gone")
        }
    }

    static func secondInstance(_ open: @escaping Opener) async throws {
        let first = try await open()
        let second = try await open()
        let client = try OAuthClient(
            id: "kit-\(random().prefix(8).filter { $0.isLetter })", kind: .public,
            redirectURIs: ["http://127.0.0.1/callback"])
        let savedCode = code(family: random())
        let refresh = token(.refresh, family: random())
        try await first.saveClient(client)
        try await first.saveCode(savedCode)
        try await first.saveToken(refresh)
        try Check.expectEqual(try await second.client(client.id), client, "a client saved through the first instance")
        try Check.expectEqual(try await second.token(refresh.hash), refresh, "a token saved through the first instance")
        try Check.expectEqual(
            try await second.redeemCode(savedCode.hash), .first(savedCode),
            "the second instance redeems a code the first saved")
        guard case .replay? = try await first.redeemCode(savedCode.hash) else {
            throw ConformanceFailure("a code redeemed through the second instance must be a replay in the first")
        }
        try await second.revokeFamily(refresh.familyID)
        try Check.expect(
            try await first.token(refresh.hash) == nil,
            "a family revoked through the second instance, seen by the first")
    }

    static func codeRace(_ open: @escaping Opener) async throws {
        let stores = [try await open(), try await open()]
        let saved = code(family: random())
        try await stores[0].saveCode(saved)
        let firsts = try await race(stores) { try await $0.redeemCode(saved.hash).map(\.isFirst) }
        try Check.expectEqual(firsts, 1, "first redemptions of one code among 16 racing tasks")
    }

    static func refreshRace(_ open: @escaping Opener) async throws {
        let stores = [try await open(), try await open()]
        let saved = token(.refresh, family: random())
        try await stores[1].saveToken(saved)
        let firsts = try await race(stores) { try await $0.redeemRefreshToken(saved.hash).map(\.isFirst) }
        try Check.expectEqual(firsts, 1, "first redemptions of one refresh token among 16 racing tasks")
    }

    /// Runs `redeem` in 16 concurrent tasks, alternating between the stores; counts the firsts, and fails on a `nil`.
    private static func race(
        _ stores: [any OAuthStore], _ redeem: @escaping @Sendable (any OAuthStore) async throws -> Bool?
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool?.self) { group in
            for index in 0..<16 {
                let store = stores[index % stores.count]
                group.addTask { try await redeem(store) }
            }
            var firsts = 0
            for try await outcome in group {
                let isFirst = try Check.require(outcome, "a racing redemption found no record at all")
                if isFirst { firsts += 1 }
            }
            return firsts
        }
    }
}

extension OAuthRedemption {
    fileprivate var isFirst: Bool {
        if case .first = self { return true }
        return false
    }
}

extension Date {
    /// Whole seconds, so that a store keeping seconds compares equal.
    fileprivate var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded()) }
}
