import Foundation
import NIOCore
public import WOPIStorage

extension FileSystemStorage {
    public func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        let name = try FileTree.storedName(name)
        let save = SaveContext.recorded
        _ = try await blocking("Checking container \(parent)") { [tree] in try tree.locateContainer(parent).id }
        let (temporary, stamp) = try await receive(content)
        return try await blocking("Creating file \"\(name)\"") { [tree] in
            try tree.commitCreate(temporary, stamp: stamp, named: name, in: parent, overwrite: overwrite, save: save)
        }
    }

    public func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        let save = SaveContext.recorded
        _ = try await blocking("Checking file \(id)") { [tree] in try tree.locateFile(id).id }
        let (temporary, stamp) = try await receive(content)
        return try await blocking("Writing file \(id)") { [tree] in
            try tree.commitWrite(temporary, stamp: stamp, to: id, expectedVersion: expectedVersion, save: save)
        }
    }

    public func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await blocking("Opening file \(id)") { [tree, pool] in
            let location = try tree.locateFile(id)
            let metadata = try tree.describeFile(location)
            let size = location.status.size
            let lower = min(max(range?.lowerBound ?? 0, 0), size)
            let upper = min(max(range?.upperBound ?? size, lower), size)
            let reader = FileReader(location.entry, range: lower..<upper, pool: pool)
            return FileContent(metadata: metadata, body: reader.stream)
        }
    }

    /// How many bytes of a body are gathered before they are hashed and written, by two jobs running at once.
    ///
    /// Memory holds two batches per upload: the one being hashed and written, and the next one arriving. At the end of
    /// each batch, receiving, hashing and writing wait for the slowest of them, so fewer batches cost fewer waits:
    /// `Docs/benchmarks.md` ("PutFile: the body's reader only reads") has the figures of 1, 2, 4 and 8 MiB.
    static let writeBatchBytes = 4 << 20

    /// Streams a body into a new temporary file, flushed and stamped; the file is removed if anything fails.
    ///
    /// The task reading the body only gathers its chunks. Each batch of ``writeBatchBytes`` (and the last, partial
    /// one) is hashed by a job on the global concurrent executor and written by a job on the thread pool, both while
    /// the next batch arrives.
    private func receive(_ content: ByteStream) async throws -> (TemporaryFile, ContentStamp) {
        let temporary = try await blocking("Creating a temporary file") { [tree] in
            try TemporaryFile(in: tree.temporary)
        }
        let digest = SharedContentDigest()
        do {
            try await withThrowingTaskGroup(of: Void.self) { jobs in
                var batch: [ByteBuffer] = []
                var batchBytes = 0
                /// Hashes and writes `batch` in two jobs, once the previous batch's are done: both take batches in
                /// order.
                func handOver() async throws {
                    try await jobs.waitForAll()
                    jobs.addTask(executorPreference: globalConcurrentExecutor) { [batch] in digest.update(batch) }
                    jobs.addTask { [batch] in
                        try await self.blocking("Writing content") { try temporary.append(batch) }
                    }
                    batch.removeAll(keepingCapacity: true)
                    batchBytes = 0
                }
                for try await chunk in content {
                    batch.append(chunk)
                    batchBytes += chunk.readableBytes
                    if batchBytes >= Self.writeBatchBytes { try await handOver() }
                }
                if !batch.isEmpty { try await handOver() }
                try await jobs.waitForAll()
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(
                .io, "The content stream failed before its end; nothing was changed. Send the content again.",
                underlying: error)
        }
        let sha256 = digest.result.sha256
        let (_, stamp) = try await blocking("Flushing content") { try temporary.finish(sha256: sha256) }
        return (temporary, stamp)
    }
}
