/// A backend that keeps old versions for readers and unfinished uploads until it collects them (SQLite,
/// PostgreSQL); ``StorageGarbageCollector`` runs the collection while a host serves.
public protocol GarbageCollectingStorage: Sendable {
    /// Deletes expired reader leases, abandoned unfinished writes and old versions no reader holds; never a write
    /// still making progress or a version a reader still holds.
    @discardableResult
    func collectGarbage() async throws -> GarbageReport
}

/// What one garbage collection removed.
public struct GarbageReport: Sendable, Hashable {
    /// Unfinished versions whose write was abandoned (its process died or it stalled too long).
    public var abandonedWrites: Int
    /// Replaced or deleted versions that were kept for readers whose leases are now gone.
    public var retiredVersions: Int
    /// Expired reader leases.
    public var expiredLeases: Int

    /// Creates a report.
    public init(abandonedWrites: Int, retiredVersions: Int, expiredLeases: Int) {
        self.abandonedWrites = abandonedWrites
        self.retiredVersions = retiredVersions
        self.expiredLeases = expiredLeases
    }
}
