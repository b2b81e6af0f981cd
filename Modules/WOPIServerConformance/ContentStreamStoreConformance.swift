import Foundation
import WOPIModels
public import WOPIServer
import WOPIStorage
public import WOPIStorageConformance

/// The conformance kit for ``WOPIServer/ContentStreamStore``: records read back whole (properties in order,
/// alternate bytes exact), the compare-and-swap on the sequence number, removal, and concurrent swaps across two
/// instances on one store, of which exactly one wins each round.
///
/// File IDs are random, so the cases also run against a store that holds other records.
public enum ContentStreamStoreConformance {
    /// Every content stream store conformance case.
    public static var cases: [ConformanceCase<any ContentStreamStore>] {
        [
            .init("a record reads back whole, and only a swap from its sequence number replaces it", roundTrip),
            .init("a removed record is gone, and can be created again", removal),
            .init("of 16 concurrent swaps across two instances from one sequence number, one wins", concurrentSwaps),
        ]
    }

    typealias Opener = ConformanceCase<any ContentStreamStore>.Opener

    private static func file() -> ItemID { ItemID(rawValue: "kit-" + UUID().uuidString.prefix(12).lowercased())! }

    private static let record = ContentStreamRecord(
        contentVersion: "v1", sequenceNumber: 1,
        properties: [
            ContentProperty(name: "z", value: "last", retention: .keepOnContentChange),
            ContentProperty(name: "a", value: "é ✓", retention: .deleteOnContentChange),
        ],
        alternateStreams: ["Alternate": Data((0..<300).map { UInt8($0 % 256) }), "Empty": Data()])

    static func roundTrip(_ open: @escaping Opener) async throws {
        let store = try await open()
        let id = file()
        try Check.expect(try await store.record(of: id) == nil, "an unknown file has no record")
        try Check.expect(
            try await store.compareAndSwap(file: id, expectedSequenceNumber: nil, new: record), "the first record")
        try Check.expectEqual(try await store.record(of: id), record, "the record read back")
        try Check.expect(
            !(try await store.compareAndSwap(file: id, expectedSequenceNumber: nil, new: record)),
            "creating a record that exists fails")
        var next = record.afterContentChange(to: "v2")
        try Check.expect(
            !(try await store.compareAndSwap(file: id, expectedSequenceNumber: 7, new: next)),
            "a swap from another sequence number fails")
        try Check.expect(
            try await store.compareAndSwap(file: id, expectedSequenceNumber: 1, new: next),
            "a swap from the current one")
        next.sequenceNumber = 2
        try Check.expectEqual(try await store.record(of: id), next, "the swapped record")
        try Check.expectEqual(try await store.record(of: file()), nil, "another file has still no record")
    }

    static func removal(_ open: @escaping Opener) async throws {
        let store = try await open()
        let id = file()
        _ = try await store.compareAndSwap(file: id, expectedSequenceNumber: nil, new: record)
        try await store.removeRecord(of: id)
        try Check.expect(try await store.record(of: id) == nil, "a removed record is gone")
        try await store.removeRecord(of: id)
        try Check.expect(
            try await store.compareAndSwap(file: id, expectedSequenceNumber: nil, new: record),
            "a record created again after its removal")
    }

    static func concurrentSwaps(_ open: @escaping Opener) async throws {
        let first = try await open()
        let second = try await open()
        let id = file()
        _ = try await first.compareAndSwap(file: id, expectedSequenceNumber: nil, new: record)
        for round in Int64(1)...3 {
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<16 {
                    let store = index.isMultiple(of: 2) ? first : second
                    var next = record
                    next.sequenceNumber = round + 1
                    next.contentVersion = "round \(round) writer \(index)"
                    group.addTask { try await store.compareAndSwap(file: id, expectedSequenceNumber: round, new: next) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try Check.expectEqual(wins, 1, "winners of round \(round)")
            try Check.expectEqual(
                try await second.record(of: id)?.sequenceNumber, round + 1, "the sequence number after round \(round)")
        }
    }
}
