public import Foundation
public import WOPIModels
public import WOPIStorage

/// What CSPP Plus keeps of a file besides its MainContent (which is the file's content in the storage backend):
/// its alternate content streams, its content properties, and its sequence number.
///
/// A record names the content ``contentVersion`` it was written for. The host compares it with the file's
/// current version whenever it reads the record: when another path changed the content (PutFile,
/// PutRelativeFile, a write through the mount), it drops the alternate streams and the `DeleteOnContentChange`
/// properties and moves the sequence number on — so no writer has to know of co-authoring.
public struct ContentStreamRecord: Codable, Sendable, Hashable {
    /// The ``FileMetadata/version`` of the MainContent this record goes with.
    public var contentVersion: String
    /// The file's sequence number: at least 1, it grows with every change of any stream.
    public var sequenceNumber: Int64
    /// The content properties, in the order they were first set.
    public var properties: [ContentProperty]
    /// The alternate streams' bytes, by stream ID.
    public var alternateStreams: [String: Data]

    /// Creates a record.
    public init(
        contentVersion: String, sequenceNumber: Int64, properties: [ContentProperty] = [],
        alternateStreams: [String: Data] = [:]
    ) {
        self.contentVersion = contentVersion
        self.sequenceNumber = sequenceNumber
        self.properties = properties
        self.alternateStreams = alternateStreams
    }

    /// The record as it is once the MainContent became `version` by another path: alternates and
    /// `DeleteOnContentChange` properties gone, the sequence number one further.
    public func afterContentChange(to version: String) -> ContentStreamRecord {
        ContentStreamRecord(
            contentVersion: version, sequenceNumber: sequenceNumber + 1,
            properties: properties.filter { $0.retention == .keepOnContentChange }, alternateStreams: [:])
    }
}

/// Keeps each file's ``ContentStreamRecord`` (CSPP Plus incremental file transfer). Records are replaced whole,
/// by a compare-and-swap on the sequence number, so two hosts sharing a store never lose each other's change.
public protocol ContentStreamStore: Sendable {
    /// The record of `file`, `nil` when none was ever written.
    func record(of file: ItemID) async throws -> ContentStreamRecord?

    /// Replaces the record of `file` with `new` when the stored one has `expectedSequenceNumber` (`nil`: none is
    /// stored). Returns whether it did.
    func compareAndSwap(file: ItemID, expectedSequenceNumber: Int64?, new: ContentStreamRecord) async throws -> Bool

    /// Forgets the record of `file` (the file was deleted).
    func removeRecord(of file: ItemID) async throws
}

/// A ``ContentStreamStore`` in memory: for one process, and the reference for the others.
public actor InMemoryContentStreamStore: ContentStreamStore {
    private var records: [ItemID: ContentStreamRecord] = [:]

    /// An empty store.
    public init() {}

    public func record(of file: ItemID) -> ContentStreamRecord? { records[file] }

    public func compareAndSwap(file: ItemID, expectedSequenceNumber: Int64?, new: ContentStreamRecord) -> Bool {
        guard records[file]?.sequenceNumber == expectedSequenceNumber else { return false }
        records[file] = new
        return true
    }

    public func removeRecord(of file: ItemID) { records[file] = nil }
}
