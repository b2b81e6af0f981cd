import Foundation
import Logging
public import WOPIServer
public import WOPIStorageConformance

/// The conformance kit for ``WOPIServer/AuditLog``: events read back field for field and in order, each filter of
/// ``WOPIServer/AuditQuery`` alone and together, a second opener sees what the first recorded, concurrent
/// records from two openers all land, and submitted events keep their turn among recorded ones and are written by
/// `AuditLog.flush()`.
///
/// Every case uses user and item IDs that start with a random tag, so the cases also run against a log that holds
/// other events.
public enum AuditLogConformance {
    /// Every audit log conformance case.
    public static var cases: [ConformanceCase<any AuditLog>] {
        [
            .init("events read back field for field, in the order recorded", roundTrip),
            .init("since, user and item filter alone and together", filters),
            .init("a second opener reads what the first recorded; 16 concurrent records all land", concurrent),
            .init(
                "submitted events in their turn among recorded ones; flush writes them for a second opener", submitted),
        ]
    }

    private static func tag() -> String { "t" + String(UInt64.random(in: 0...UInt64.max), radix: 36) }

    /// A date with whole milliseconds, which every log keeps exactly.
    private static let date = Date(timeIntervalSince1970: 1_790_000_000.25)

    private static func events(_ tag: String) -> [AuditEvent] {
        [
            AuditEvent(.signIn, at: date, userID: "\(tag)ana", address: "192.0.2.7"),
            AuditEvent(
                .save, at: date.addingTimeInterval(1), userID: "\(tag)ana", itemID: "\(tag)f1",
                details: ["editors": "\(tag)ana,\(tag)bob", "autosave": "true", "exitSave": "false"]),
            AuditEvent(.open, at: date.addingTimeInterval(2), userID: "\(tag)bob", itemID: "\(tag)f1"),
            AuditEvent(.lockConflict, at: date.addingTimeInterval(3), userID: "\(tag)bob", itemID: "\(tag)f2"),
            AuditEvent(.signInFailed, at: date.addingTimeInterval(4), address: "198.51.100.1"),
        ]
    }

    /// The events of `tag` among `all` (the log may hold other cases' events).
    private static func mine(_ all: [AuditEvent], _ tag: String) -> [AuditEvent] {
        all.filter { ($0.userID ?? "").hasPrefix(tag) || ($0.itemID ?? "").hasPrefix(tag) }
    }

    static func roundTrip(_ open: @escaping ConformanceCase<any AuditLog>.Opener) async throws {
        let log = try await open()
        let tag = tag()
        let recorded = events(tag)
        for event in recorded { try await log.record(event) }
        let all = try await log.events(matching: AuditQuery(since: date))
        try Check.expectEqual(mine(all, tag), recorded.filter { $0.userID != nil }, "the tagged events, in order")
        try Check.expect(all.contains(recorded[4]), "an event without user or item is kept too")
    }

    static func filters(_ open: @escaping ConformanceCase<any AuditLog>.Opener) async throws {
        let log = try await open()
        let tag = tag()
        let recorded = events(tag)
        for event in recorded { try await log.record(event) }
        try Check.expectEqual(
            try await log.events(matching: AuditQuery(userID: "\(tag)ana")), Array(recorded[0...1]), "by user")
        try Check.expectEqual(
            try await log.events(matching: AuditQuery(itemID: "\(tag)f1")), Array(recorded[1...2]), "by item")
        try Check.expectEqual(
            try await log.events(matching: AuditQuery(userID: "\(tag)bob", itemID: "\(tag)f1")), [recorded[2]],
            "by user and item")
        try Check.expectEqual(
            mine(try await log.events(matching: AuditQuery(since: date.addingTimeInterval(2))), tag),
            Array(recorded[2...3]), "since a date (inclusive)")
        try Check.expectEqual(
            try await log.events(matching: AuditQuery(since: date.addingTimeInterval(2), userID: "\(tag)ana")), [],
            "since a date, by user")
    }

    static func concurrent(_ open: @escaping ConformanceCase<any AuditLog>.Opener) async throws {
        let first = try await open()
        let second = try await open()
        let tag = tag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                let log = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    try await log.record(
                        AuditEvent(.open, at: date, userID: "\(tag)u\(index)", itemID: "\(tag)f"))
                }
            }
            try await group.waitForAll()
        }
        let read = try await first.events(matching: AuditQuery(itemID: "\(tag)f"))
        try Check.expectEqual(
            Set(read.compactMap(\.userID)), Set((0..<16).map { "\(tag)u\($0)" }), "every concurrent record, once")
        try Check.expectEqual(read.count, 16, "no record twice")
        try Check.expectEqual(
            try await second.events(matching: AuditQuery(itemID: "\(tag)f")), read, "the second opener reads the same")
    }

    static func submitted(_ open: @escaping ConformanceCase<any AuditLog>.Opener) async throws {
        let log = try await open()
        let tag = tag()
        let sequence = events(tag)
        let logger = Logger(label: "wopikit.conformance.audit")
        for (index, event) in sequence.enumerated() {
            if index.isMultiple(of: 2) {
                await log.submit(event, reportingFailuresTo: logger)
            } else {
                try await log.record(event)
            }
        }
        try Check.expectEqual(
            mine(try await log.events(matching: AuditQuery(since: date)), tag), sequence.filter { $0.userID != nil },
            "submitted and recorded events read back in the order they came")
        let last = AuditEvent(.open, at: date, userID: "\(tag)last", itemID: "\(tag)f9")
        await log.submit(last, reportingFailuresTo: logger)
        await log.flush()
        let second = try await open()
        try Check.expectEqual(
            try await second.events(matching: AuditQuery(itemID: "\(tag)f9")), [last],
            "a second opener reads a submitted event once the first has flushed")
    }
}
