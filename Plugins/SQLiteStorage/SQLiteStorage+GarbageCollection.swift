import ChunkedVersionStore
import Foundation
import GRDB
public import WOPIStorage

extension SQLiteStorage: GarbageCollectingStorage {
    /// Deletes expired reader leases, abandoned unfinished writes and no longer needed old versions.
    ///
    /// It runs when the storage opens; a long-running host may also call it now and then (hourly is plenty).
    /// It never touches a write that is still making progress or a version a reader still holds.
    @discardableResult
    public func collectGarbage() async throws -> GarbageReport {
        try await perform("collect garbage") { try await versions.collectGarbage() }
    }

    /// The synchronous form used while opening: also removes the chunk files no `chunks` row names (of writes a
    /// crash interrupted).
    func collectGarbageNow() throws {
        let statements = VersionSQL.collectGarbage(
            now: configuration.timestamp, retention: configuration.versionRetention, skipLocked: "")
        let dialect = versions.dialect
        do {
            _ = try pool.write { db in try dialect.run(db, statements) }
            // Chunk files are swept here; an object store at the first `collectGarbage()`.
            try (dialect.chunkBodies as? ChunkFiles)?.sweepAll()
        } catch let failure as POSIXFailure {
            throw StorageError(failure, "Collecting the chunk files while opening the storage")
        } catch {
            throw SQLiteErrorMapping.storageError(error, doing: "collect garbage while opening the storage")
        }
    }
}
