package import ChunkedVersionStore
package import Foundation
package import Logging
package import NIOCore
package import S3ObjectStore
import Synchronization
import WOPIStorage

/// Chunk bodies as objects in an S3 bucket (``ChunkBodyStore``): the content of a storage whose metadata is in
/// SQLite or PostgreSQL, in a bucket every host shares.
///
/// **Layout.** The body of a chunk is the object `<prefix><staging version>/<staging index>` (for example
/// `chunks/1234/0`): named, like a chunk file, by the version that wrote it first and the chunk's index there,
/// because its ``ChunkID`` is known only once its last byte went by and a body streams to the bucket before that.
/// The database's `chunks` row maps the ID to that name; a chunk shorter than one piece stays in the database.
///
/// **Writes.** A body up to ``partSize`` is one PUT; a longer one (a file that is not a zip is one chunk) is a
/// multipart upload of ``partSize`` parts, a few in flight, so memory holds a few parts whatever the file's size.
/// The row that names a body is inserted after S3 acknowledged it, so no row names a missing object.
///
/// **Removal.** Bodies whose rows a committed transaction deleted are removed at once
/// (``removeCommitted(_:)``, best effort); garbage collection (``removeAllUnlisted()``) lists the bucket and removes
/// each object no row names, of a version no longer being written, once it is older than ``gracePeriod``: a host
/// whose write was given up for dead may still be uploading.
package final class S3ChunkBodies: ChunkBodyStore {
    /// The bucket's client.
    package let store: S3ObjectStore
    /// What every object name starts with, ending in `/` (`chunks/`).
    package let prefix: String
    /// How old an object no row names must be before garbage collection removes it.
    package let gracePeriod: TimeInterval
    /// The size of a multipart upload's parts, and the largest body sent in one PUT.
    package let partSize: Int
    /// How many parts of one body are uploaded at once.
    package let partsInFlight: Int
    /// How many bytes one ranged GET reads at most (``ChunkBodyStore/readSize``). Default 8 MiB: a GET costs a round
    /// trip and a signature, so 1 MiB GETs one after the other left the gateway idle half the time.
    package let readSize: Int64
    let catalog: ChunkBodyCatalog
    let now: @Sendable () -> Date
    let logger: Logger
    /// Removals started by ``removeCommitted(_:)`` and not finished, which garbage collection waits for.
    private let removals = Mutex<[Int: Task<Void, Never>]>([:])
    private let removalCount = Atomic<Int>(0)

    /// Bodies in `store`'s bucket under `prefix`; `catalog` reads what the database keeps.
    package init(
        store: S3ObjectStore, prefix: String = "chunks/", catalog: ChunkBodyCatalog, gracePeriod: TimeInterval = 3600,
        partSize: Int = 8 << 20, partsInFlight: Int = 4, readSize: Int64 = 8 << 20,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "WOPIKit.S3ChunkBodies")
    ) {
        precondition(partSize >= 5 << 20, "S3 needs multipart parts of at least 5 MiB.")
        precondition(partsInFlight > 0, "At least one part is in flight.")
        precondition(readSize > 0, "A read reads at least one byte.")
        self.store = store
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.catalog = catalog
        self.gracePeriod = gracePeriod
        self.partSize = partSize
        self.partsInFlight = partsInFlight
        self.readSize = readSize
        self.now = now
        self.logger = logger
    }

    package var location: String { "s3://\(store.configuration.bucket)/\(prefix)" }

    /// The object name of body `key`.
    package func objectKey(_ key: PieceKey) -> String { "\(prefix)\(key.versionID)/\(key.chunkIndex)" }

    /// The body an object name names, or `nil` for an object that is not a body.
    package func pieceKey(_ objectKey: String) -> PieceKey? {
        guard objectKey.hasPrefix(prefix) else { return nil }
        let parts = objectKey.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let version = Int64(parts[0]), let index = Int64(parts[1]) else { return nil }
        return PieceKey(versionID: version, chunkIndex: index)
    }

    package func writer(for versionID: Int64) -> any ChunkBodyWriter {
        S3ChunkBodyWriter(bodies: self, versionID: versionID)
    }

    package func read(_ key: PieceKey, _ range: Range<Int64>) async throws -> ByteBuffer? {
        guard !range.isEmpty else { return ByteBuffer() }
        let objectKey = objectKey(key)
        do {
            guard
                let object = try await store.getObject(
                    objectKey, range: .bytes(range.lowerBound...range.upperBound - 1))
            else { return nil }
            let bytes = try await object.body.collect(upTo: range.count)
            return bytes.readableBytes == range.count ? bytes : nil
        } catch {
            throw Self.storageError(error, "read chunk body \(objectKey)")
        }
    }

    // MARK: Removing

    package func removeCommitted(_ rows: [SQLRow]) {
        let keys = PieceKey.bodies(in: rows).map(objectKey)
        guard !keys.isEmpty else { return }
        let id = removalCount.wrappingAdd(1, ordering: .relaxed).oldValue
        // Registered under the lock before the task can end and unregister itself.
        removals.withLock { removals in
            removals[id] = Task { [self] in
                await remove(keys, doing: "remove the bodies of deleted chunks")
                _ = self.removals.withLock { $0.removeValue(forKey: id) }
            }
        }
    }

    package func removeUnlisted(of versionID: Int64) async throws -> Int {
        // The writer's own version, which it just gave up: no other host writes into it, so no grace period.
        let listed = try await objects(under: "\(prefix)\(versionID)/")
        guard let keep = try await catalog.storedBodies(versionID) else { return 0 }
        let unlisted = listed.filter { !keep.contains($0.key.chunkIndex) }.map(\.name)
        return await remove(unlisted, doing: "remove the chunk bodies of version \(versionID)")
    }

    package func removeAllUnlisted() async throws -> Int {
        for task in removals.withLock({ Array($0.values) }) { await task.value }
        // The listing comes before each version's lookup: an object written after it is left alone, and one listed
        // was written after its version's row, so the lookup sees that row.
        let cutoff = now().addingTimeInterval(-gracePeriod)
        let listed = try await objects(under: prefix).filter { ($0.lastModified ?? .distantFuture) < cutoff }
        var unlisted: [String] = []
        for (versionID, objects) in Dictionary(grouping: listed, by: \.key.versionID) {
            guard let keep = try await catalog.storedBodies(versionID) else { continue }
            unlisted += objects.filter { !keep.contains($0.key.chunkIndex) }.map(\.name)
        }
        return await remove(unlisted, doing: "collect unlisted chunk bodies")
    }

    /// Deletes `keys`, logging what failed (garbage collection retries it); returns how many went.
    @discardableResult
    func remove(_ keys: [String], doing action: String) async -> Int {
        guard !keys.isEmpty else { return 0 }
        do {
            let failures = try await store.deleteObjects(keys)
            if !failures.isEmpty {
                logger.warning(
                    "Could not \(action) (garbage collection retries)",
                    metadata: ["failed": "\(failures.count)", "first": "\(failures[0])"])
            }
            return keys.count - failures.count
        } catch {
            logger.warning("Could not \(action) (garbage collection retries): \(error)")
            return 0
        }
    }

    /// The bodies under `prefix`, with their names and times.
    private func objects(under prefix: String) async throws -> [(name: String, key: PieceKey, lastModified: Date?)] {
        do {
            var found: [(name: String, key: PieceKey, lastModified: Date?)] = []
            for try await object in store.listAllObjects(prefix: prefix) {
                guard let key = pieceKey(object.key) else { continue }
                found.append((object.key, key, object.lastModified))
            }
            return found
        } catch {
            throw Self.storageError(error, "list the chunk bodies under \(location)")
        }
    }

    /// `error` as the storage's error: a bucket that does not answer is ``StorageError/Code/unavailable``.
    static func storageError(_ error: any Error, _ action: String) -> any Error {
        if error is StorageError || error is CancellationError { return error }
        if let failure = error as? S3Error, failure.code == .noSuchBucket || failure.code == .invalidCredentials {
            return StorageError(.unavailable, "Could not \(action): \(failure). Check the object store's settings.")
        }
        return StorageError(.unavailable, "Could not \(action): \(error). Retry when the object store answers.")
    }
}
