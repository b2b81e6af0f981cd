import Foundation
import WOPIModels
public import WOPIServer
import WOPIStorage
public import WOPIStorageConformance

/// The conformance kit for ``WOPIServer/ShareStore`` and ``WOPIServer/ActivityLog``: grants read back field for
/// field in both directions, a second grant replaces the first, every role, revocation, what a second opener sees, and
/// concurrent grants from two openers.
///
/// Every case uses user and item IDs that start with a random tag, so the cases also run against a store that
/// holds other shares.
public enum ShareStoreConformance {
    /// Every share store conformance case.
    public static var cases: [ConformanceCase<any ShareStore>] {
        [
            .init("a grant reads back field for field, by grantee and by grantor", roundTrip),
            .init("granting the same item to the same grantee again replaces the grant", replace),
            .init("every role above none reads back as granted", roles),
            .init("revoke removes one grant, says whether there was one, and leaves the others", revoke),
            .init("a second opener of the same store sees every change at once", secondOpener),
            .init("16 concurrent grants from two openers all land", concurrentGrants),
        ]
    }

    /// Every activity log conformance case.
    public static var activityCases: [ConformanceCase<any ActivityLog>] {
        [.init("appended activities read back in order, per file, from a second opener", activities)]
    }

    private static func tag() -> String { "t" + String(UInt64.random(in: 0...UInt64.max), radix: 36) }

    private static func item(_ tag: String, _ index: Int) -> ItemID { ItemID(rawValue: "\(tag)i\(index)")! }

    /// A date with whole milliseconds, which every store keeps exactly.
    private static let date = Date(timeIntervalSince1970: 1_790_000_000.25)

    static func roundTrip(_ open: @escaping ConformanceCase<any ShareStore>.Opener) async throws {
        let store = try await open()
        let tag = tag()
        let share = Share(
            itemID: item(tag, 1), granteeID: "\(tag)bob", permission: .view, grantedBy: "\(tag)ana", grantedAt: date)
        try await store.grant(share)
        try Check.expectEqual(try await store.shares(withGrantee: "\(tag)bob"), [share], "shares(withGrantee:)")
        try Check.expectEqual(try await store.shares(grantedBy: "\(tag)ana"), [share], "shares(grantedBy:)")
        try Check.expectEqual(try await store.shares(withGrantee: "\(tag)ana"), [], "the grantor is no grantee")
    }

    static func replace(_ open: @escaping ConformanceCase<any ShareStore>.Opener) async throws {
        let store = try await open()
        let tag = tag()
        var share = Share(
            itemID: item(tag, 1), granteeID: "\(tag)bob", permission: .view, grantedBy: "\(tag)ana", grantedAt: date)
        try await store.grant(share)
        share.permission = .edit
        share.grantedAt = date.addingTimeInterval(60)
        try await store.grant(share)
        try Check.expectEqual(try await store.shares(withGrantee: "\(tag)bob"), [share], "one grant, the second")
    }

    static func roles(_ open: @escaping ConformanceCase<any ShareStore>.Opener) async throws {
        let store = try await open()
        let tag = tag()
        let roles = Permission.allCases.filter { $0 > .none }
        var granted: [Share] = []
        for (index, role) in roles.enumerated() {
            let share = Share(
                itemID: item(tag, index), granteeID: "\(tag)bob", permission: role, grantedBy: "\(tag)ana",
                grantedAt: date)
            try await store.grant(share)
            granted.append(share)
        }
        let read = try await store.shares(withGrantee: "\(tag)bob").sorted { $0.itemID.rawValue < $1.itemID.rawValue }
        try Check.expectEqual(read.map(\.permission), granted.map(\.permission), "each role as granted")
    }

    static func revoke(_ open: @escaping ConformanceCase<any ShareStore>.Opener) async throws {
        let store = try await open()
        let tag = tag()
        let kept = Share(
            itemID: item(tag, 1), granteeID: "\(tag)carol", permission: .view, grantedBy: "\(tag)ana", grantedAt: date)
        try await store.grant(kept)
        try await store.grant(
            Share(
                itemID: item(tag, 1), granteeID: "\(tag)bob", permission: .edit, grantedBy: "\(tag)ana",
                grantedAt: date))
        try Check.expect(try await store.revoke(itemID: item(tag, 1), granteeID: "\(tag)bob"), "revoke says true")
        try Check.expect(
            try await !store.revoke(itemID: item(tag, 1), granteeID: "\(tag)bob"), "a second revoke says false")
        try Check.expectEqual(try await store.shares(withGrantee: "\(tag)bob"), [], "bob has no share left")
        try Check.expectEqual(try await store.shares(grantedBy: "\(tag)ana"), [kept], "carol's share is kept")
    }

    static func secondOpener(_ open: @escaping ConformanceCase<any ShareStore>.Opener) async throws {
        let first = try await open()
        let second = try await open()
        let tag = tag()
        let share = Share(
            itemID: item(tag, 1), granteeID: "\(tag)bob", permission: .edit, grantedBy: "\(tag)ana", grantedAt: date)
        try await first.grant(share)
        try Check.expectEqual(try await second.shares(withGrantee: "\(tag)bob"), [share], "the second opener sees it")
        try await second.revoke(itemID: share.itemID, granteeID: share.granteeID)
        try Check.expectEqual(
            try await first.shares(withGrantee: "\(tag)bob"), [], "the first opener sees the second's revocation")
    }

    static func concurrentGrants(_ open: @escaping ConformanceCase<any ShareStore>.Opener) async throws {
        let openers = [try await open(), try await open()]
        let tag = tag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                let store = openers[index % 2]
                group.addTask {
                    try await store.grant(
                        Share(
                            itemID: item(tag, index), granteeID: "\(tag)bob", permission: .view,
                            grantedBy: "\(tag)ana", grantedAt: date))
                }
            }
            try await group.waitForAll()
        }
        try Check.expectEqual(
            try await openers[0].shares(withGrantee: "\(tag)bob").count, 16, "every concurrent grant landed")
    }

    static func activities(_ open: @escaping ConformanceCase<any ActivityLog>.Opener) async throws {
        let first = try await open()
        let second = try await open()
        let tag = tag()
        let body = Data(
            """
            {"Activities": [
              {"Type": "comment", "Id": "\(tag)-1", "Data": {"ContentId": "c1", "ContentAction": "created"}},
              {"Type": "mention", "Id": "\(tag)-2", "People": [{"Name": "Bob", "Id": "bob", "Mentioned": true}]}
            ]}
            """.utf8)
        let parsed = try FileActivity.parseRequest(body)
        try await first.append(parsed, on: item(tag, 1), by: "\(tag)ana", at: date)
        try await first.append([parsed[0]], on: item(tag, 2), by: "\(tag)bob", at: date)
        let read = try await second.activities(on: item(tag, 1))
        try Check.expectEqual(read.map(\.activityID), ["\(tag)-1", "\(tag)-2"], "the file's activities, in order")
        try Check.expectEqual(read.map(\.type), ["comment", "mention"], "their types")
        try Check.expectEqual(read.first?.json, parsed[0].json, "the activity as sent")
        try Check.expectEqual(read.first?.userID, "\(tag)ana", "who reported it")
        try Check.expectEqual(read.first?.receivedAt, date, "when")
        try Check.expectEqual(try await second.activities(on: item(tag, 2)).count, 1, "the other file's one")
    }
}
