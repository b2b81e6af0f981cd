import ChunkedVersionStore
import Foundation
public import WOPIStorage

extension PostgresStorage: GarbageCollectingStorage {
    /// Deletes expired reader leases, abandoned unfinished writes and no longer needed old versions.
    ///
    /// Safe while other hosts read and write: it never touches a write that is still making progress or a
    /// version an unexpired lease holds. `StorageGarbageCollector` runs it periodically in a host.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        try await versions.collectGarbage()
    }
}
